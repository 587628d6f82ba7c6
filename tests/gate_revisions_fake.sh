# kseries gate given two revisions of one series (demo/v1, demo/v2) with
# stand-in make and QEMU: the report compares them (patches unchanged,
# changed, new, dropped by stable patch-id; each cell's status then and now),
# in the text and in gate.json. Beside them a derived revision (its series
# file references v1's patches by relative path) applies and is judged
# like any other.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" \
  "$TMP/configs/matrices" "$TMP/cases/demo" "$TMP/cases/lib"
toy_kernel "$repo"
seq 1 30 | sed 's/^/int a/; s/$/;/' >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
make_revision() {  # make_revision DIR VERSION "SUBJECT|COMMAND"...
  local dir=$1 version=$2; shift 2
  git -C "$repo" checkout -q -B work "$base"
  for step in "$@"; do
    (cd "$repo" && eval "${step#*|}") && git -C "$repo" add -A &&
      git -C "$repo" commit -q -m "${step%%|*}"
  done
  git -C "$repo" format-patch -q -v"$version" -o "$dir" --base="$base" "$base..work"
  (cd "$dir" && ls *.patch >series)
  git -C "$repo" checkout -q main
}
# v2 adds a first patch (so v1's first lands at other line numbers: the same
# patch-id), makes the speed patch slow, and drops b.c.
make_revision "$TMP/series/demo/v1" 1 "demo: rename a20|sed -i s/a20/A20/ a.c" \
  "demo: set the speed|echo fast >speed" "demo: add b.c|echo 1 >b.c"
make_revision "$TMP/series/demo/v2" 2 "demo: add a header line|sed -i 1i//new a.c" \
  "demo: rename a20|sed -i s/a20/A20/ a.c" "demo: set the speed|echo slow >speed"
# A derived revision: v1's patches 1 and 3 by reference, its own slow 2/3.
mkdir -p "$TMP/series/bad/derived"
(cd "$repo" && git checkout -q -B derived "$base" && sed -i s/a20/A20/ a.c &&
  git commit -q -am "demo: rename a20" && echo slow >speed && git add speed &&
  git commit -q -m "demo: set the speed" &&
  git format-patch -q -1 --start-number 2 --subject-prefix="PATCH bad v1" -o "$TMP/series/bad/derived" &&
  git checkout -q main)
sed -i 's/^Subject: \[PATCH bad v1\]/Subject: [PATCH bad v1 2\/3]/' "$TMP/series/bad/derived/"*.patch
printf '# derived from demo/v1\n../../demo/v1/%s\n%s\n../../demo/v1/%s\n' \
  "$(cd "$TMP/series/demo/v1" && ls v1-0001-*)" "$(cd "$TMP/series/bad/derived" && ls *.patch)" \
  "$(cd "$TMP/series/demo/v1" && ls v1-0003-*)" >"$TMP/series/bad/derived/series"

echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'cell: toy demo setups=fsdax-dev\n' >"$TMP/configs/matrices/toy.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base" --matrix toy)

# v2 given first: compared in revision order, v1 -> v2.
expect_exit 1 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/v2" \
  --series "$TMP/series/demo/v1" --series "$TMP/series/bad/derived" --json "$TMP/gate.json"
expect_grep "^revisions demo/v1 -> demo/v2$" "$TMP/out"
expect_grep "patches (by stable patch-id, then subject): 1 unchanged, 1 changed, 1 new, 1 dropped" "$TMP/out"
expect_grep "^    new       -     -> 1/3   demo: add a header line$" "$TMP/out"
expect_grep "^    unchanged 1/3   -> 2/3   demo: rename a20$" "$TMP/out"
expect_grep "^    changed   2/3   -> 3/3   demo: set the speed$" "$TMP/out"
expect_grep "^    dropped   3/3   -> -     demo: add b.c$" "$TMP/out"
expect_grep "^  ! pass -> fail    toy demo$" "$TMP/out"
expect_grep "^    pass -> pass    apply$" "$TMP/out"
# Timing revision against revision: v2's slow speed patch against v1's own
# samples (not against the base).
expect_grep "^  timing, the newer revision against the older" "$TMP/out"
expect_grep "^    toy demo fsdax-dev memmap_init_[a-z]*: +[0-9.]*% \[.*\] slower" "$TMP/out"
grep -q "^revisions .*derived" "$TMP/out" && fail "a derived directory was compared as a revision"
python3 - "$TMP/gate.json" <<'PY' || fail "gate.json has no revisions section"
import json, sys
r = json.load(open(sys.argv[1]))["revisions"]
assert len(r) == 1 and r[0]["from"] == "demo/v1" and r[0]["to"] == "demo/v2", r
changes = [p["change"] for p in r[0]["patches"]]
assert changes == ["new", "unchanged", "changed", "dropped"], changes
cell = [c for c in r[0]["cells"] if c["cell"] == "toy demo"][0]
assert (cell["from"], cell["to"], cell["changed"]) == ("pass", "fail", True), cell
timing = [t for t in r[0]["timing"] if t["cell"] == "toy demo"]
assert timing and all(t["verdict"] == "slower" and t["ratio"] > 1 for t in timing), r[0]["timing"]
PY
# The derived revision applied (v1's 1/3, its own 2/3, v1's 3/3) and booted slow.
expect_grep "^series derived$" "$TMP/out"
expect_grep "pass  apply: 3 patch(es) applied" "$TMP/out"
expect_grep "FAILED toy demo: .*slower" "$TMP/out"

# Sharded (plan, gate --shard, merge): the merge compares the revisions'
# timing from the shards' cells as one gate does.
expect_exit 0 "$KSERIES" plan --configs "$TMP/configs" --matrix toy --shards 2 \
  --series "$TMP/series/demo/v2" --series "$TMP/series/demo/v1" --json "$TMP/plan.json"
dirs=()
for i in 1 2; do
  expect_exit "0|1" "$KSERIES" gate "${common[@]/$TMP\/wd/$TMP/wd$i}" --shard "$i/2" \
    --series "$TMP/series/demo/v2" --series "$TMP/series/demo/v1"
  dirs+=("$(sed -n 's/^run directory //p' "$TMP/out")")
done
expect_exit 1 "$KSERIES" merge --workdir "$TMP/wdm" "${dirs[@]}" --json "$TMP/merged.json"
expect_grep "^    toy demo fsdax-dev memmap_init_[a-z]*: +[0-9.]*% \[.*\] slower" "$TMP/out"
# ... and names v2's slowdown against v1 on its verdict line, as one gate does.
expect_grep "^  verdict: FAIL, warning: toy demo fsdax-dev memmap_init_[a-z]* +[0-9.]* % \[.*\] slower than demo/v1" "$TMP/out"
timings() { jq -c '[.revisions[].timing[] | [.cell, .setup, .metric, .verdict]]' "$1"; }
[ "$(timings "$TMP/merged.json")" = "$(timings "$TMP/gate.json")" ] && [ "$(timings "$TMP/gate.json")" != "[]" ] \
  || fail "merged timing $(timings "$TMP/merged.json") is not one gate's $(timings "$TMP/gate.json")"

# One revision: nothing to compare.
expect_exit 0 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/v1"
grep -q "^revisions " "$TMP/out" && fail "one revision was compared with something"
echo "PASS"
