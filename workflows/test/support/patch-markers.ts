// The patch markers a recorded history holds (their payloads are base64 JSON in the history's JSON), so a
// replay test can say which patch ids a fixture of the release before carries.
interface HistoryJson {
  events: {
    markerRecordedEventAttributes?: {
      markerName?: string;
      details?: Record<string, { payloads?: { data?: string }[] }>;
    };
  }[];
}

export interface PatchMarker {
  id: string;
  deprecated: boolean;
}

export function patchMarkers(json: string): PatchMarker[] {
  const history = JSON.parse(json) as HistoryJson;
  return history.events.flatMap((e) => {
    const data = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
    return data ? [JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as PatchMarker] : [];
  });
}
