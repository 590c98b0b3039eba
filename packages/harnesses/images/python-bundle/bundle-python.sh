#!/bin/sh
# Gathers what the venv at /opt/harness runs on under /opt/assay-python: the interpreter, its standard
# library, every shared library that it, the standard library's extensions and the venv's own extensions
# load (libgcc_s too, which libc loads by itself for thread unwinding), and the loader. The interpreter's ELF
# interpreter is that loader and its search path is that folder (RPATH, not RUNPATH: it also serves the
# libraries those libraries load); extensions with a search path of their own get the folder added, as an
# RPATH too (patchelf would make it a RUNPATH, which wheels' bundled libraries do not inherit: Pillow's libtiff
# finds its libzstd through _imaging's RPATH). The venv's pyvenv.cfg names the new home. No environment
# variable is set, so what the CLI starts (the task's shell, the task's own Python) runs on the task's image
# as it is.
set -eu
P=/opt/assay-python
V=/opt/harness
py=$(readlink -f "$V/bin/python")
ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
stdlib=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
mkdir -p "$P/bin" "$P/lib" /opt/assay /opt/assay-links/usr/local/bin /opt/assay-links/opt

# Which shared objects of the venv and of lib-dynload the image's own Python can load (dlopen, no module
# code run): each of them must still load from the bundle.
loadable() {
  "$1" - "$V" "$2" <<'PY'
import ctypes, os, sys
for i, root in enumerate(sys.argv[1:]):
    for d, _, files in os.walk(root):
        for f in sorted(files):
            p = os.path.join(d, f)
            if (f.endswith(".so") or ".so." in f) and not os.path.islink(p):
                try:
                    ctypes.CDLL(p)
                    print("%d:%s" % (i, os.path.relpath(p, root)))
                except OSError:
                    pass
PY
}
loadable "$py" "$stdlib/lib-dynload" | sort > /tmp/loadable-before
cp "$py" "$P/bin/python$ver"
ln -s "python$ver" "$P/bin/python3"
# -L: Debian links a few stdlib files to /etc; the copy must stand alone.
cp -rL "$stdlib" "$P/lib/python$ver"

is_elf() { [ "$(head -c 4 "$1" | tail -c 3)" = ELF ]; }
list=$(mktemp)
find "$P/bin" "$P/lib/python$ver" "$V" -type f | while read -r f; do
  is_elf "$f" || continue
  # Libraries a wheel carries itself (found through its $ORIGIN) stay where they are.
  ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | grep -v -e "^$V/" -e "^$P/" || true
done | sort -u > "$list"
while read -r lib; do cp -L "$lib" "$P/lib/$(basename "$lib")"; done < "$list"
gcc_s=$(find /lib /usr/lib -name libgcc_s.so.1 2>/dev/null | head -n 1)
[ -n "$gcc_s" ] && cp -L "$gcc_s" "$P/lib/libgcc_s.so.1"
loader=$(ldd "$py" | awk '$1 ~ /^\/.*ld-linux/ { print $1 }')
cp -L "$loader" "$P/lib/ld-linux.so"
rm -f "$list"

patchelf --set-interpreter "$P/lib/ld-linux.so" --force-rpath --set-rpath "$P/lib" "$P/bin/python$ver"
find "$P/lib/python$ver" "$V" -type f -name '*.so*' | while read -r f; do
  is_elf "$f" || continue
  own=$(patchelf --print-rpath "$f" 2>/dev/null || true)
  [ -n "$own" ] && patchelf --force-rpath --set-rpath "$own:$P/lib" "$f"
  true
done

for l in "$V"/bin/python*; do
  if [ -L "$l" ]; then ln -sfn "$P/bin/python$ver" "$l"; fi
done
sed -i -e "s|^home *=.*|home = $P/bin|" -e "s|^executable *=.*|executable = $P/bin/python$ver|" "$V/pyvenv.cfg"
for f in /usr/local/bin/*; do
  case "$(readlink "$f" || true)" in "$V"/*) ln -s "$(readlink "$f")" "/opt/assay-links/usr/local/bin/$(basename "$f")" ;; esac
done
for f in /opt/assay-harness-version /opt/assay-harness-freeze.txt; do
  if [ -e "$f" ]; then cp "$f" /opt/assay-links/opt/; fi
done

loadable "$V/bin/python" "$P/lib/python$ver/lib-dynload" | sort > /tmp/loadable-after
if ! cmp -s /tmp/loadable-before /tmp/loadable-after; then
  echo "the bundled Python cannot load what the image's could:" >&2
  comm -23 /tmp/loadable-before /tmp/loadable-after >&2
  exit 1
fi
echo "bundle: $(wc -l < /tmp/loadable-after) shared objects load as in the image" >&2
rm -f /tmp/loadable-before /tmp/loadable-after

# The bundle must stand on its own: its interpreter, its prefix, and the extensions that need libraries.
"$V/bin/python" - <<PY
import sys
assert sys.base_prefix == "$P", sys.base_prefix
assert sys.prefix == "$V", sys.prefix
import ssl, sqlite3, ctypes, lzma, bz2, zlib, hashlib, decimal, json  # noqa: F401
print("bundled", sys.version.split()[0], "at", sys.base_prefix, file=sys.stderr)
PY
