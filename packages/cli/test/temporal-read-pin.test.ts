// temporal-read (packages/cli/src/temporal-read/) is a subset cut from the Temporal SDK: it takes
// internal modules of @temporalio/client, common and proto. These tests fail on any version of those
// packages other than the one it was cut for, naming the package and both versions, until the subset
// is re-cut (the comment at the top of temporal-read/index.ts); and they resolve every internal module
// it imports, so a module the SDK moved fails here rather than in `assay status`.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMPORAL_READ_CUT_FOR, TEMPORAL_READ_SDK_MODULES } from '../src/temporal-read/index.js';

const DIR = path.resolve(import.meta.dirname, '../src/temporal-read');
/** Resolved as the code resolves them: from the temporal-read sources (createRequire(import.meta.url)). */
const fromSources = createRequire(path.join(DIR, 'read-connection.ts'));
const versionOf = (req: NodeJS.Require, pkg: string) =>
  (JSON.parse(readFileSync(req.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version;

const recut = (pkg: string, installed: string, cut: string, where: string) =>
  `${pkg} ${where} is ${installed}, but temporal-read was cut for ${cut}: re-cut it as the comment at the top of ` +
  `packages/cli/src/temporal-read/index.ts says (the SDK-internal modules it imports, the Connection's channel ` +
  `setup it copies, the proto methods it reads), then set TEMPORAL_READ_CUT_FOR['${pkg}'] to '${installed}'`;

/** Every '@temporalio/...' specifier in the temporal-read sources (index.ts records them), with the names imported. */
function specifiersInSources(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.ts') && f !== 'index.ts')) {
    const text = readFileSync(path.join(DIR, file), 'utf8');
    for (const m of text.matchAll(/['"](@temporalio\/[^'"]+)['"]/g)) found.set(m[1]!, found.get(m[1]!) ?? []);
    for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"](@temporalio\/[^'"]+)['"]/g)) {
      const names = m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, ''));
      found.set(m[2]!, [...(found.get(m[2]!) ?? []), ...names.filter(Boolean)]);
    }
  }
  return found;
}
const packageOf = (specifier: string) => specifier.split('/').slice(0, 2).join('/');

describe('temporal-read against the installed Temporal SDK', () => {
  it('runs on the @temporalio/* versions it was cut for', () => {
    const mismatches = Object.entries(TEMPORAL_READ_CUT_FOR)
      .map(([pkg, cut]) => [pkg, versionOf(fromSources, pkg), cut] as const)
      .filter(([, installed, cut]) => installed !== cut)
      .map(([pkg, installed, cut]) => recut(pkg, installed, cut, 'installed for packages/cli'));
    expect(mismatches).toEqual([]);
  });

  it("cuts from the same @temporalio/common and proto as the SDK's own Connection", () => {
    const fromClient = createRequire(fromSources.resolve('@temporalio/client/package.json'));
    const mismatches = (['@temporalio/common', '@temporalio/proto'] as const)
      .map((pkg) => [pkg, versionOf(fromClient, pkg), TEMPORAL_READ_CUT_FOR[pkg]] as const)
      .filter(([, installed, cut]) => installed !== cut)
      .map(([pkg, installed, cut]) => recut(pkg, installed, cut, 'as @temporalio/client resolves it'));
    expect(mismatches).toEqual([]);
  });

  it('records every @temporalio package and internal module its sources import', () => {
    const used = specifiersInSources();
    const packages = [...new Set([...used.keys()].map(packageOf))].sort();
    expect(packages, 'a package missing from TEMPORAL_READ_CUT_FOR').toEqual(Object.keys(TEMPORAL_READ_CUT_FOR).sort());
    const internal = [...used.keys()].filter((s) => s !== packageOf(s) && !s.endsWith('/package.json')).sort();
    expect(internal, 'a module missing from TEMPORAL_READ_SDK_MODULES').toEqual(
      Object.keys(TEMPORAL_READ_SDK_MODULES).sort(),
    );
    for (const [specifier, names] of Object.entries(TEMPORAL_READ_SDK_MODULES))
      expect([...(used.get(specifier) ?? [])].sort(), specifier).toEqual([...names].sort());
  });

  it.each(Object.entries(TEMPORAL_READ_SDK_MODULES))('resolves %s and what it takes from it', (specifier, names) => {
    const file = fromSources.resolve(specifier);
    expect(file).toContain(`${packageOf(specifier)}`);
    const mod = fromSources(specifier) as Record<string, unknown>;
    for (const name of names) expect(mod[name], `${specifier} no longer exports ${name}`).toBeDefined();
    if (names.length === 0) expect(typeof (mod as { lookup?: unknown }).lookup, specifier).toBe('function');
  });
});
