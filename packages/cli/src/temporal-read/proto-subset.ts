// The few Temporal service methods a read-only command calls, over a protobuf root that holds only
// them and the messages they reach. @temporalio/proto builds the whole API (1.4 MB of JSON, every
// service, message and enum: ~0.25 s of CPU at each start) to make any call; the subset is cut from
// that same root once per @temporalio/proto version and kept under .assay/cache/, so it is the
// official definitions, never a copy that could drift from the installed SDK.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import protobuf from 'protobufjs/light.js';

/** A service's full name and the methods kept of it (their proto names, e.g. DescribeWorkflowExecution). */
export interface ServiceMethods {
  service: string;
  methods: readonly string[];
}

type Json = Record<string, unknown>;
type Nested = Record<string, Json>;

const FORMAT = 1;
const require = createRequire(import.meta.url);

/** The subset root: from the cache when it was cut for this @temporalio/proto, else cut now and cached. */
export function loadProtoSubset(wanted: readonly ServiceMethods[], cacheDir: string, extra: readonly string[] = []) {
  const protoPackage = require.resolve('@temporalio/proto/package.json');
  const version = (JSON.parse(fs.readFileSync(protoPackage, 'utf8')) as { version: string }).version;
  const key = createHash('sha256')
    .update(JSON.stringify({ FORMAT, version, protoPackage, wanted, extra }))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(cacheDir, `temporal-proto-${version}-${key}.json`);
  const cached = readJson(file);
  if (cached) return protobuf.Root.fromJSON(cached);
  const json = cutSubset(fullRoot(), wanted, extra);
  writeAtomically(file, JSON.stringify(json));
  return protobuf.Root.fromJSON(json);
}

/** @temporalio/proto's own root (as its json-module builds it), before the SDK patches it. */
function fullRoot(): protobuf.Root {
  return require('@temporalio/proto/protos/json-module.js') as protobuf.Root;
}

/** The JSON of `root` with only the wanted methods and every type they reach (fields, maps, nested). */
function cutSubset(root: protobuf.Root, wanted: readonly ServiceMethods[], extra: readonly string[] = []): Json {
  root.resolveAll();
  const keep = new Set<string>();
  const visit = (t: protobuf.ReflectionObject | null) => {
    if (!t || keep.has(t.fullName)) return;
    keep.add(t.fullName);
    // Duck-typed: @temporalio/proto's root may come from another copy of protobufjs than ours.
    const fields = (t as Partial<protobuf.Type>).fieldsArray ?? [];
    for (const f of fields) visit(f.resolve().resolvedType);
  };
  const methods = new Map<string, Set<string>>();
  for (const w of wanted) {
    const service = root.lookupService(w.service);
    keep.add(service.fullName);
    methods.set(service.fullName, new Set(w.methods));
    for (const name of w.methods) {
      const m = service.methods[name];
      if (!m) throw new Error(`${w.service} has no method ${name} in @temporalio/proto`);
      m.resolve();
      visit(m.resolvedRequestType);
      visit(m.resolvedResponseType);
    }
  }
  for (const name of extra) visit(root.lookup(name));
  const nested = pruneNested((root.toJSON() as Json).nested as Nested, '', keep, methods);
  return { nested };
}

/** The namespaces, types and enums of `nested` that are kept or hold something kept. */
function pruneNested(nested: Nested | undefined, prefix: string, keep: Set<string>, methods: Map<string, Set<string>>) {
  const out: Nested = {};
  for (const [name, def] of Object.entries(nested ?? {})) {
    const full = `${prefix}.${name}`;
    const inner = pruneNested(def.nested as Nested | undefined, full, keep, methods);
    const hasInner = Object.keys(inner).length > 0;
    const kept = keep.has(full);
    if (def.methods && kept) {
      const only = methods.get(full) ?? new Set<string>();
      const all = def.methods as Nested;
      out[name] = { methods: Object.fromEntries(Object.entries(all).filter(([m]) => only.has(m))) };
    } else if ((def.fields || def.values) && kept) {
      const { nested: _all, ...own } = def;
      out[name] = hasInner ? { ...own, nested: inner } : own;
    } else if (hasInner) {
      out[name] = { nested: inner };
    }
  }
  return out;
}

function readJson(file: string): Json | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
  } catch {
    return null;
  }
}

/** A cache that cannot be written (a read-only checkout) only costs the next start the cut again. */
function writeAtomically(file: string, text: string): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch {
    // Nothing to do: the subset is still used from memory.
  }
}
