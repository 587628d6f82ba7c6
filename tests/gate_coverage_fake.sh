# The gate's coverage stage with stand-in make and QEMU: the stand-in make
# compiles the toy tree with gcc -g (a real DWARF line table), the stand-in
# QEMU writes a cover file as the plugin's cover mode would (the addresses
# of the covered_* functions). A coverage cell (a target with the
# `coverage` feature) is booted with the cover mode; the stage merges it
# over the series' changed lines: executed, compiled but never run, never
# compiled with the reason. It is in the text report, gate.json, KCIDB
# (valid) and the HTML page; the matrix's policy (min=, require) fails a
# revision for the right reason; no cover file is an error, never a pass.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
command -v /usr/bin/gcc >/dev/null || { echo "skipped: no gcc"; exit 77; }
export FAKE_MAKE_VMLINUX=gcc
repo=$TMP/toy
mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/configs/matrices"
toy_kernel "$repo"
printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
git -C "$repo" checkout -q -b cov
cat >"$repo/b.c" <<'C'
int covered_fast(int v)
{
	return v * 3;
}
int never_run(int v)
{
	if (v > 100)
		return v - 1;
	return v + 1;
}
#ifdef CONFIG_TOY_OFF
int never_compiled(int v)
{
	return v * 5;
}
#endif
C
git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: b.c"
git -C "$repo" format-patch -q -o "$TMP/series/demo/cov" --base="$base" "$base..cov"
(cd "$TMP/series/demo/cov" && ls *.patch >series)
git -C "$repo" checkout -q main
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'fragments: a\nfeatures: pmem coverage\n' >"$TMP/configs/targets/toycov.target"
printf 'cell: toy demo\ncell: toycov demo\n' >"$TMP/configs/matrices/toy.matrix"
printf 'cell: toycov demo\ncoverage: min=100\n' >"$TMP/configs/matrices/min.matrix"
printf 'cell: toycov demo\ncoverage: require b.c:5-10\n' >"$TMP/configs/matrices/req.matrix"
printf 'cell: toycov demo\ncoverage: require b.c:1-4\ncoverage: min=30\n' >"$TMP/configs/matrices/ok.matrix"
printf 'cell: toy demo\ncoverage: min=10\n' >"$TMP/configs/matrices/nocell.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base" --series "$TMP/series/demo/cov")

# The gate: the coverage cell's boot wrote a cover file; the stage reads it.
mkdir -p "$TMP/pages"
expect_exit 0 "$KSERIES" gate "${common[@]}" --matrix toy --kcidb "$TMP/k.json" \
  --html "$TMP/pages/gate.html"
run=$(sed -n 's/^run directory //p' "$TMP/out")
ls "$run"/cells/*toycov*/candidate-1.cover >/dev/null || fail "no cover file in the coverage cell"
ls "$run"/cells/*-toy_demo*/*.cover >/dev/null 2>&1 && fail "a cover file in the timing cell (toy has no coverage feature)"
# b.c: covered_fast() (lines 1-4) executed, never_run() (5-10) compiled,
# never run, never_compiled() (12-15) never compiled.
expect_grep "pass  coverage: coverage: [0-9]* of [0-9]* changed lines executed; [0-9]* never compiled (TOY_OFF: " "$TMP/out"
expect_grep "compiled, never run (b.c:[5-7]" "$TMP/out"
expect_grep "^        toycov demo: [0-9]* of [0-9]* changed lines executed (1 boot(s), [0-9]* kernel addresses)" "$TMP/out"
cov_text=$(sed -n 's/^        per line: //p' "$TMP/out")
[ -f "$cov_text" ] || fail "no per-line coverage file ($cov_text)"
expect_grep "^  1 b.c:3 executed \[compiled in toycov; executed in toycov demo\]" "$cov_text"
expect_grep "^  1 b.c:8 compiled \[compiled in toycov\]" "$cov_text"
expect_grep "^  1 b.c:14 never-compiled \[TOY_OFF: " "$cov_text"
[ "$(jq -r '.cells[] | select(.cell == "coverage") | .status' "$run/gate.json")" = pass ] ||
  fail "gate.json: no passing coverage cell"
jq -e '.cells[] | select(.cell == "coverage") | .properties.coverage_json' "$run/gate.json" >/dev/null ||
  fail "gate.json: the coverage cell names no coverage.json"
# KCIDB: valid, the revision's share as a number in %, the cell's lines.
PY=python3
"$PY" "$SRC/tests/tools/check_kcidb.py" "$SRC/tests/schemas/kcidb.schema.json" "$TMP/k.json" >"$TMP/kc" 2>&1 ||
  { cat "$TMP/kc"; fail "KCIDB not valid"; }
[ "$(jq -r '.tests[] | select(.path == "kseries.coverage") | .number.unit' "$TMP/k.json")" = "%" ] ||
  fail "KCIDB: no kseries.coverage test with a % number"
[ "$(jq -r '.tests[] | select(.path == "kseries.coverage.cell") | .number.unit' "$TMP/k.json")" = lines ] ||
  fail "KCIDB: no per-cell coverage test"
grep -q "coverage of the changed lines: coverage: " "$TMP/pages/gate.html" || fail "HTML: no coverage section"
grep -q 'class="cov-never-compiled"' "$TMP/pages/gate.html" || fail "HTML: no never-compiled line marked"
# A coverage.json edited after the run (a shard's, copied from CI): a value
# of the wrong type is named with its cell, exit 2, never an internal error.
cov_json=$(jq -r '.cells[] | select(.cell == "coverage") | .properties.coverage_json' "$run/gate.json")
cp "$cov_json" "$TMP/cov.orig"
for change in '.cells = "x"' '.lines[0].patch = "1"' '.summary = []'; do
  jq "$change" "$TMP/cov.orig" >"$cov_json"
  expect_exit 2 "$KSERIES" report --run "$run" --html "$TMP/bad.html"
  expect_grep "$cov_json (cell cov: coverage): a value of the wrong type" "$TMP/err"
done
cp "$TMP/cov.orig" "$cov_json"

# The policy: min=100 fails the revision, saying by how much.
expect_exit 1 "$KSERIES" gate "${common[@]}" --matrix min
expect_grep "fail  coverage: coverage: min=100: [0-9]* of [0-9]* changed lines executed (.* %), below 100 %" "$TMP/out"
expect_grep "^gate: FAIL" "$TMP/out"
# require: never_run()'s lines must run; they are compiled, not run.
expect_exit 1 "$KSERIES" gate "${common[@]}" --matrix req
expect_grep "fail  coverage: coverage: require b.c:5-10 (.*req.matrix:2): [0-9]* of [0-9]* changed lines not executed; compiled, never run: b.c:" "$TMP/out"
# A policy the revision meets passes.
expect_exit 0 "$KSERIES" gate "${common[@]}" --matrix ok
expect_grep "pass  coverage: coverage: " "$TMP/out"
# A policy with no coverage cell checks nothing: refused at load, before work.
expect_exit 2 "$KSERIES" gate "${common[@]}" --matrix nocell
expect_grep "nocell.matrix:2: a coverage policy, but no cell of this matrix has a coverage target" "$TMP/err"
[ -z "$(sed -n 's/^run directory //p' "$TMP/out")" ] || fail "a refused matrix started a run"

# kseries boot on the coverage target writes the cover file too; --no-cover
# (to measure what the cover mode costs) does not.
expect_exit 0 "$KSERIES" boot "${common[@]}" --target toycov --case demo
boot_run=$(sed -n 's/^run directory //p' "$TMP/out")
ls "$boot_run"/*candidate-1.cover >/dev/null 2>&1 || ls "$boot_run"/*/candidate-1.cover >/dev/null ||
  fail "kseries boot on a coverage target wrote no cover file ($boot_run)"
expect_exit 0 "$KSERIES" boot "${common[@]}" --target toycov --case demo --no-cover
boot_run=$(sed -n 's/^run directory //p' "$TMP/out")
[ -z "$(find "$boot_run" -name '*.cover')" ] || fail "--no-cover wrote a cover file"

# No cover file (QEMU killed before its exit wrote it): an error, never a pass.
FAKE_QEMU_COVER=none expect_exit 1 "$KSERIES" gate "${common[@]}" --matrix toy
expect_grep "error  coverage: no coverage cell left a cover file" "$TMP/out"
echo "ok"
