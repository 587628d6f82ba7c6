# Bytes that are not text survive into every report: ESC, FF, NUL, a Latin-1
# e-acute (0xE9) and 0xFF in a patch subject (read as Latin-1 there, as git
# am does), in a compiler warning and in a console line (and the guest's
# result reasons). Each run gives well-formed
# files (JUnit valid against tests/schemas/junit.xsd, JSON that parses) and
# the verdict the bytes do not change: a build whose make succeeded passes,
# a panic is a panic, a subject with a NUL is refused naming file and line.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/junit_lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" \
  "$TMP/configs/matrices" "$TMP/cases/demo" "$TMP/cases/lib"
toy_kernel "$repo"
printf 'exit 0;\n' >"$repo/scripts/checkpatch.pl"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
# One patch whose new file makes the stand-in compiler warn with odd bytes.
echo "int c; /* ODDBYTES */" >"$repo/c.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: placeholder subject"
git -C "$repo" format-patch -q -o "$TMP/series/demo/odd" --base="$base" HEAD~1
patch=$(ls "$TMP/series/demo/odd"/*.patch)
(cd "$TMP/series/demo/odd" && ls *.patch >series)
# The subject as hostile mail has it: raw bytes, no RFC 2047, no charset.
perl -pi -e 's/^Subject: .*/Subject: [PATCH] demo: odd \e[1m \f caf\xE9 \xFF bytes/' "$patch"
LC_ALL=C grep -q "$(printf 'caf\351 \377')" "$patch" || fail "the subject did not get its odd bytes"
# The same with a NUL in the subject: refused.
mkdir -p "$TMP/series/demo/nul"
perl -pe 's/^Subject: .*/Subject: [PATCH] demo: nul \0 here/' "$patch" >"$TMP/series/demo/nul/0001.patch"
echo 0001.patch >"$TMP/series/demo/nul/series"
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'per-patch: toy\ncell: toy demo setups=fsdax-dev,devdax-mem\n' >"$TMP/configs/matrices/toy.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
tree=(--workdir "$TMP/wd" --tree "$repo" --base "$base")
configs=(--configs "$TMP/configs" --testcases "$TMP/cases")
json_ok() { /usr/bin/python3 -m json.tool "$1" >/dev/null || fail "$1 is not well-formed JSON"; }

# A subject: applied, the bytes cleaned in the commit and the report.
expect_exit 0 "$KSERIES" apply "${tree[@]}" --series "$TMP/series/demo/odd" --junit "$TMP/apply.xml"
check_junit "$TMP/apply.xml" "tests=1 failures=0 errors=0 skipped=0"
expect_grep "^applied odd 1/1 .* demo: odd .*caf.* bytes" "$TMP/out"
# 0xE9 and 0xFF declare no charset: read as Latin-1 (e-acute, y-diaeresis),
# as git am does, with a note; the report shows the same letters.
latin1=$(printf 'caf\303\251 \303\277 bytes')
expect_grep "demo: odd .*$latin1" "$TMP/out"
expect_grep "note: .*\.patch:[0-9]*: the subject: 2 byte(s) not UTF-8 and no charset declared: read as Latin-1" \
  "$TMP/err"
expect_grep "$latin1" "$TMP/apply.xml"
expect_exit 2 "$KSERIES" apply "${tree[@]}" --series "$TMP/series/demo/nul" --junit "$TMP/nul.xml"
expect_grep "0001.patch:[0-9]*: .*NUL" "$TMP/err"
expect_early_end "$TMP/nul.xml" "usage error"

# A compiler warning: make succeeded, so the build passes, its warning kept
# (new versus the base's build).
expect_exit 0 "$KSERIES" build "${tree[@]}" "${configs[@]}" --target toy
expect_exit 0 "$KSERIES" build "${tree[@]}" "${configs[@]}" --target toy --series "$TMP/series/demo/odd" \
  --per-patch --junit "$TMP/build.xml"
check_junit "$TMP/build.xml" "tests=1 failures=0 errors=0 skipped=0"
grep -aq "new warning: c.c: odd .*caf" "$TMP/out" || { cat "$TMP/out"; fail "the odd warning is not listed"; }
found=0
for json in "$TMP"/wd/kernels/*/build.json; do json_ok "$json"; found=$((found + 1)); done
[ "$found" -ge 2 ] || fail "expected the base's and the patch's build.json, found $found"
grep -q 'odd .*caf' "$TMP"/wd/kernels/*/build.json || fail "the odd warning is not in build.json"

# A console line and result reasons: a clean boot passes, a panic fails.
FAKE_QEMU_ODD_BYTES=1 expect_exit 0 "$KSERIES" boot "${tree[@]}" "${configs[@]}" --case demo --target toy \
  --boots 1 --junit "$TMP/boot.xml" --json "$TMP/boot.json"
check_junit "$TMP/boot.xml" "$(boot_totals "$TMP/boot.json")"
json_ok "$TMP/boot.json"
json_ok "$TMP/wd/runs/latest/results.json"
FAKE_QEMU_ODD_BYTES=1 FAKE_QEMU_MODE=panic expect_exit 1 "$KSERIES" boot "${tree[@]}" "${configs[@]}" \
  --case demo --target toy --junit "$TMP/panic.xml" --json "$TMP/panic.json"
expect_grep "panic: Kernel panic - not syncing: VFS: Unable to mount root fs" "$TMP/out"
check_junit "$TMP/panic.xml" "$(boot_totals "$TMP/panic.json")"
expect_grep "^failure boot.toy.demo boot base #1: panic: Kernel panic - not syncing: VFS: Unable to mount root fs" \
  "$TMP/junit.first"
json_ok "$TMP/panic.json"
grep -q '"title": "Kernel panic - not syncing: VFS: Unable to mount root fs' "$TMP/panic.json" \
  || fail "the panic is not in the JSON"

# All three at once through the gate.
FAKE_QEMU_ODD_BYTES=1 expect_exit 0 "$KSERIES" gate "${tree[@]}" "${configs[@]}" --matrix toy \
  --series "$TMP/series/demo/odd" --junit "$TMP/gate.xml" --json "$TMP/gate.json"
check_junit "$TMP/gate.xml" "$(gate_totals)"
json_ok "$TMP/gate.json"
expect_grep "^gate: PASS" "$TMP/out"
echo "PASS"
