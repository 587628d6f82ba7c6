# kseries plan / gate --shard / merge with stand-in make and QEMU: the toy
# gate of gate_fake.sh (a good revision, a slow one and a build break, both
# known-bad with expectations) run once on one machine and once as 3 shards,
# each on its own work directory, then merged. The merge gives the same cells
# (series, cell, status, in the same order) and the same verdict lines; no
# target is built by two shards; a gate that fails gives the same failure
# merged. The merged run directory has the reports a gate writes (gate.json
# with series and verdicts, JUnit, report.html, kcidb.json), also from shard
# directories copied elsewhere (CI artifacts). A shard reads a series from
# a FIFO mbox once. A missing shard, a duplicated one, a shard of another
# plan and an interrupted one are errors (exit 2), never a smaller report.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
source "$(dirname "$0")/gate_toy.bash"

# gate_then_merge NAME SERIES...: one machine, then 3 shards + merge; both
# judged the same, whatever the verdict; $TMP/NAME.shardN holds shard N's run.
gate_then_merge() {
  local name=$1 want=$2; shift 2
  expect_exit "$want" "$KSERIES" gate --workdir "$TMP/$name.wd" "${tree[@]}" --matrix toy "$@" \
    --json "$TMP/$name.single.json"
  what_was_judged "$TMP/out" "$TMP/$name.single.json" >"$TMP/$name.single.judged"
  expect_exit 0 "$KSERIES" plan --configs "$TMP/configs" --matrix toy --shards 3 "$@" \
    --json "$TMP/$name.plan.json"
  local i dirs=()
  for i in 1 2 3; do
    # 0 or 1: a shard's status speaks for its share only.
    expect_exit "0|1" "$KSERIES" gate --workdir "$TMP/$name.wd$i" "${tree[@]}" --matrix toy "$@" \
      --shard "$i/3"
    expect_grep "^shard $i/3 of plan $(jq -r .plan_id "$TMP/$name.plan.json")" "$TMP/out"
    dirs+=("$(sed -n 's/^run directory //p' "$TMP/out")")
    echo "${dirs[-1]}" >"$TMP/$name.shard$i"
  done
  expect_exit "$want" "$KSERIES" merge --workdir "$TMP/$name.wdm" "${dirs[@]}" \
    --json "$TMP/$name.merged.json" --junit "$TMP/$name.merged.xml"
  what_was_judged "$TMP/out" "$TMP/$name.merged.json" >"$TMP/$name.merged.judged"
  sed -n 's/^run directory //p' "$TMP/out" >"$TMP/$name.mergedir"
  diff -u "$TMP/$name.single.judged" "$TMP/$name.merged.judged" \
    || fail "$name: 3 shards merged are not judged as one machine judges"
  # One testcase per cell, and one more per series whose expectations do
  # not hold (report/gate_junit.cc).
  [ "$(grep '<testcase' "$TMP/$name.merged.xml" | grep -vc 'name="expectations"')" \
    = "$(jq '.cells | length' "$TMP/$name.single.json")" ] \
    || fail "$name: the merged JUnit file does not have one testcase per cell"
}

# Known-bad revisions caught for the right reason: PASS on one machine and merged.
gate_then_merge pass 0 "${series[@]}"
expect_grep "^gate: PASS" "$TMP/out"
# Every shard's cells were judged by this build, and the merge says so.
build=$("$KSERIES" --version | sed -n 's/^kseries [^ ]* (\(.*\))$/\1/p')
[ -n "$build" ] || fail "kseries --version names no build"
expect_grep "^judged by kseries $build\$" "$TMP/out"
grep -q "expected failure holds: toy demo: slower" "$TMP/pass.merged.judged" \
  || fail "the merge did not judge slow's expectation"
[ "$(wc -l <"$TMP/pass.merged.judged")" -ge 14 ] || fail "too few cells judged: $(cat "$TMP/pass.merged.judged")"
# 4 jobs (series, toy, other, nopmem) on 3 shards, the same plan every time.
[ "$(jq '.jobs | length' "$TMP/pass.plan.json")" = 4 ] || fail "not 4 jobs: $(cat "$TMP/pass.plan.json")"
"$KSERIES" plan --configs "$TMP/configs" --matrix toy --shards 3 "${series[@]}" >"$TMP/plan.again" 2>/dev/null
cmp -s "$TMP/plan.again" "$TMP/pass.plan.json" || fail "two plans of the same gate differ"
# A shard never builds what another builds: each target's kernels in one work directory.
for target in toy other; do
  n=$(ls -d "$TMP"/pass.wd[123]/targets/$target 2>/dev/null | wc -l)
  [ "$n" = 1 ] || fail "target $target built by $n shards"
done

# The merge's run directory holds what a gate's holds, with the same series
# records (patch files' sha256) and a KCIDB checkout per series.
m=$(cat "$TMP/pass.mergedir")
for f in gate.txt gate.json junit.xml report.html kcidb.json; do
  [ -s "$m/$f" ] || fail "the merge wrote no $f"
done
[ "$(jq -c '[.series[] | [.series, [.patches[].sha256]]]' "$m/gate.json")" = \
  "$(jq -c '[.series[] | [.series, [.patches[].sha256]]]' "$TMP/pass.single.json")" ] \
  || fail "the merged series records differ from one machine's"
jq -e '[.series[] | .verdict.ok] == [true, true, true] and .end.ok == true' "$m/gate.json" \
  >/dev/null || fail "the merged gate.json lacks the verdicts: $(jq -c '.series, .end' "$m/gate.json")"
jq -e '.checkouts | length == 3' "$m/kcidb.json" >/dev/null || fail "kcidb.json: not 3 checkouts"
for s in demo/good demo/slow demo/breaks; do
  grep -q "$s" "$m/report.html" || fail "report.html does not show $s"
done
# Shard directories copied elsewhere (the CI templates' artifacts): the
# merge reads each cell's logs where they are now.
for i in 1 2 3; do cp -a "$(cat "$TMP/pass.shard$i")" "$TMP/moved$i"; done
expect_exit 0 "$KSERIES" merge --workdir "$TMP/wdmoved" "$TMP/moved1" "$TMP/moved2" "$TMP/moved3" \
  --json "$TMP/moved.json"
jq -r '.cells[].properties.run_dir // empty' "$TMP/moved.json" >"$TMP/moved.dirs"
[ -s "$TMP/moved.dirs" ] || fail "no merged cell has a run directory"
while read -r d; do
  case "$d" in "$TMP"/moved[123]/cells/*) [ -d "$d" ] || fail "$d does not exist" ;;
    *) fail "a merged cell's run_dir $d is not under the copied shard directories" ;; esac
done <"$TMP/moved.dirs"

# A shard reads each series source once (a FIFO mbox can be read once: a
# second open would block until the timeout; SIGKILL 5 s later, as kseries
# takes SIGTERM as a flag and a blocked open() does not see it).
git -C "$repo" format-patch -q --stdout --base="$base" "$base..good" >"$TMP/good.mbox"
mkfifo "$TMP/good.fifo"
timeout 60 sh -c 'cat "$1" >"$2"' - "$TMP/good.mbox" "$TMP/good.fifo" &
writer=$!
expect_exit 0 timeout -k 5 60 "$KSERIES" gate --workdir "$TMP/fifo.wd" "${tree[@]}" --matrix toy \
  --series "$TMP/good.fifo" --shard 1/3
wait "$writer"
fifo_run=$(sed -n 's/^run directory //p' "$TMP/out")
jq -e '.finished and (.plan.series | length == 1)' "$fifo_run/shard.json" >/dev/null \
  || fail "the FIFO shard's record: $(cat "$fifo_run/shard.json")"

# A failing gate (an expectation that does not hold) fails the same way merged.
echo "fail: other demo: slower" >"$TMP/series/demo/good/expect"
gate_then_merge fail 1 "${series[@]}"
expect_grep "ERROR other demo was expected to fail with 'slower' but is pass" "$TMP/out"
# JUnit counts it a failure, though every cell of the series passed.
grep -A1 'name="expectations"' "$TMP/fail.merged.xml" | grep -q "<failure message=\"other demo was expected" \
  || fail "the merged JUnit file does not fail the unmet expectation: $(grep -A2 expectations "$TMP/fail.merged.xml")"
rm "$TMP/series/demo/good/expect"

# Never a silently smaller report.
d1=$(cat "$TMP/pass.shard1") d2=$(cat "$TMP/pass.shard2") d3=$(cat "$TMP/pass.shard3")
expect_exit 2 "$KSERIES" merge --workdir "$TMP/m" "$d1" "$d3"
expect_grep "shard(s) 2/3 missing" "$TMP/err"
expect_exit 2 "$KSERIES" merge --workdir "$TMP/m" "$d1" "$d2" "$d2" "$d3"
expect_grep "shard 2/3 given twice" "$TMP/err"
expect_exit 2 "$KSERIES" merge --workdir "$TMP/m" "$d1" "$d2" "$(cat "$TMP/fail.shard3")"
expect_grep "shards of different plans do not merge" "$TMP/err"
expect_exit 0 "$KSERIES" gate --workdir "$TMP/pass.wd2" "${tree[@]}" --matrix small "${series[@]}" --shard 2/3
small=$(sed -n 's/^run directory //p' "$TMP/out")
expect_exit 2 "$KSERIES" merge --workdir "$TMP/m" "$d1" "$small" "$d3"
expect_grep "different plans" "$TMP/err"
# An interrupted shard (its record says so) is not merged as if complete.
jq '.finished = false' "$d2/shard.json" >"$TMP/s.json" && cp "$TMP/s.json" "$d2/shard.json"
expect_exit 2 "$KSERIES" merge --workdir "$TMP/m" "$d1" "$d2" "$d3"
expect_grep "did not finish" "$TMP/err"
expect_exit 2 "$KSERIES" merge --workdir "$TMP/m" "$TMP"
expect_grep "no shard.json" "$TMP/err"
expect_exit 2 "$KSERIES" gate --workdir "$TMP/x" "${tree[@]}" --matrix toy "${series[@]}" --shard 4/3
expect_grep "1 <= I <= N" "$TMP/err"
echo "PASS"
