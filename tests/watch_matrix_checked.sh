# kseries watch checks its matrix at start, as the gate and plan do: a
# typo in a cell's target or case, an unknown key or a second per-patch
# line is refused naming the matrix's FILE:LINE (exit 2) before any inbox is
# read, never gated (a misspelt target once became a FAIL mailed to the
# patch's author). A good matrix gets as far as the inbox.
source "$(dirname "$0")/lib.bash"
cp -r "$SRC/kernel-configs" "$TMP/configs"
watch() {  # watch MATRIX: one poll of an inbox that is not there
  expect_exit "$1" "$KSERIES" watch --workdir "$TMP/wd" --configs "$TMP/configs" \
    --testcases "$SRC/testcases" --inbox "http://127.0.0.1:9/none" --outbox "$TMP/outbox" \
    --once --matrix "$2"
}
printf 'cell: pmem memmap-timing\ncell: pmme memmap-equivalence\n' >"$TMP/typo.matrix"
watch 2 "$TMP/typo.matrix"
expect_grep "typo.matrix:2: unknown target 'pmme'" "$TMP/err"
printf '# the case misspelt\ncell: pmem memmap-timng\n' >"$TMP/case.matrix"
watch 2 "$TMP/case.matrix"
expect_grep "case.matrix:2: unknown case 'memmap-timng'" "$TMP/err"
printf 'per-patch: pmem\ncell: pmem memmap-timing\nper-patch: kasan\n' >"$TMP/twice.matrix"
watch 2 "$TMP/twice.matrix"
expect_grep "twice.matrix:3: 'per-patch:' is already at line 1" "$TMP/err"
# A case that needs a feature no target of the configs has.
sed -i 's/^features:.*/features: none/' "$TMP"/configs/targets/*.target
watch 2 quick
expect_grep "quick.matrix:.*: case memmap-timing needs 'pmem', a feature no target" "$TMP/err"
# Nothing was polled, nothing answered.
[ ! -e "$TMP/outbox" ] || [ -z "$(ls -A "$TMP/outbox")" ] || fail "the outbox has an answer"
[ ! -d "$TMP/wd/watch" ] || [ -z "$(ls -A "$TMP/wd/watch")" ] || fail "a watch state was written"
# The same matrices pass once they are right: the watch then reads the
# inbox, which is not there (another error, after the matrix).
cp -r "$SRC/kernel-configs/targets/." "$TMP/configs/targets/"
watch "1|2" quick
grep -q "quick.matrix" "$TMP/err" && fail "the good matrix was refused: $(cat "$TMP/err")"
echo "PASS"
