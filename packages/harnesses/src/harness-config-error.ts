// A system whose harness settings cannot work (no model, a key variable the worker lacks,
// a base URL that is not http(s), a bad command template). Thrown as its own class so the
// worker can tell it from a passing failure (an image build, Docker) without reading messages.
export class HarnessConfigError extends Error {
  override name = 'HarnessConfigError';
}
