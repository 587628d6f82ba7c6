# The "reproduce: sh PATH" line a gate prints for a failed cell is pasted
# into a shell by whoever reads the report (issue 50, class 7). PATH holds
# the series directory's name: printed unquoted, a series directory named
# x$(touch${IFS}PWNED)y ran touch when the line was pasted. Now the path is
# quoted. And `kseries merge` printed a shard's reproduce property as its
# gate.json had it (a CI artifact anyone may have edited); now only the
# shard's own reproduce.sh is printed, a tampered value is dropped.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
source "$(dirname "$0")/gate_toy.bash"
hostile="$TMP/series/x\$(touch\${IFS}PWNED)y"
mkdir -p "$hostile"
cp -r "$TMP/series/demo/slow" "$hostile/slow"
rm "$hostile/slow/expect"  # not known-bad here: its failure fails the gate
mkdir -p "$TMP/paste"

# The gate: the slow revision fails "other demo"; its reproduce line, pasted
# into sh, runs the script (which boots again and fails the same way) and
# nothing else.
# (The work directory too: the run directory, and so the path, is below it.)
expect_exit 1 "$KSERIES" gate --workdir "$TMP/wd \$(touch\${IFS}PWNED)" "${tree[@]}" --matrix small \
  --series "$hostile/slow"
line=$(sed -n 's/^        reproduce: //p' "$TMP/out")
[ -n "$line" ] || fail "no reproduce line: $(cat "$TMP/out")"
mkdir -p "$TMP/bin" && ln -sf "$(realpath "$KSERIES")" "$TMP/bin/kseries"
(cd "$TMP/paste" && env PATH="$TMP/bin:$PATH" KSERIES_WORKDIR="$TMP/wd-reproduce" sh -c "$line") \
  >"$TMP/paste.out" 2>&1 && fail "the reproducer passed: $(cat "$TMP/paste.out")"
[ -e "$TMP/paste/PWNED" ] && fail "pasting the reproduce line ran touch: $line"
grep -q "slower" "$TMP/paste.out" || fail "the pasted line did not run the reproducer: $(cat "$TMP/paste.out")"

# The merge of one shard whose gate.json was edited: the tampered reproduce
# value is not printed; the shard's own reproduce.sh would be.
expect_exit 0 "$KSERIES" plan --configs "$TMP/configs" --matrix small --shards 1 \
  --series "$hostile/slow" --json "$TMP/plan.json"
expect_exit 1 "$KSERIES" gate --workdir "$TMP/wd1" "${tree[@]}" --matrix small \
  --series "$hostile/slow" --shard 1/1
shard=$(sed -n 's/^run directory //p' "$TMP/out")
jq '(.cells[] | select(.properties.reproduce != null) | .properties.reproduce) = "x; touch PWNED"' \
  "$shard/gate.json" >"$TMP/tampered.json"
grep -q "touch PWNED" "$TMP/tampered.json" || fail "the shard's gate.json has no reproduce property"
cp "$shard/gate.json" "$TMP/own.json"
cp "$TMP/tampered.json" "$shard/gate.json"
expect_exit 1 "$KSERIES" merge --workdir "$TMP/wdm" "$shard"
grep -q "PWNED" "$TMP/out" && fail "the merge printed the tampered reproduce line: $(grep PWNED "$TMP/out")"
cp "$TMP/own.json" "$shard/gate.json"
expect_exit 1 "$KSERIES" merge --workdir "$TMP/wdm2" "$shard"
expect_grep "^        reproduce: sh .*/cells/slow-other-demo/reproduce.sh$" "$TMP/out"
echo "ok: the reproduce line is quoted; a tampered shard's is dropped"
