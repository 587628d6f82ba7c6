# kseries coverage in time and memory linear in its input (issue 50): a
# patch of 30,000 hunks in one function under one #ifdef (50,000 such hunks
# ran past 300 s: every changed line walked its file from the top, and its
# function from the line up), #ifdefs nested 10,000 deep with a changed
# line at each level (240 s: each level's conditions explained again for
# every line, each under all the levels), and a cover file of 2.5 million
# addresses, 55 MB (read whole and split into strings: 482 MB for 54 MB).
# The run must finish in a minute, within 1 GiB of address space, and judge
# each line as before: the rewritten lines never compiled for want of
# CONFIG_BENCH_BIG (which target big sets), the deepest ones judged on
# their outermost 32 conditions, saying so.
source "$(dirname "$0")/lib.bash"
command -v gcc >/dev/null || { echo "skipped: no gcc"; exit 77; }
limit=(prlimit --as=$((1 << 30)) --)
grep -qa __asan_init "$KSERIES" && limit=()  # ASan reserves terabytes of address space
python3 "$SRC/ci/bench-coverage" --generate "$TMP/in" --hunks 30000 --nest 10000 \
  --cover-lines 2500000 >"$TMP/args"
mapfile -t args <"$TMP/args"
[ "$(stat -c %s "$TMP/in/cover")" -gt 50000000 ] || fail "the cover file is under 50 MB"
start=$SECONDS
expect_exit 0 timeout -s KILL 300 "${limit[@]}" "$KSERIES" "${args[@]}" --workdir "$TMP/wd" \
  --json "$TMP/cov.json"
elapsed=$((SECONDS - start))
echo "kseries coverage: $elapsed s"
[ "$elapsed" -le 60 ] || fail "kseries coverage took $elapsed s (more than a minute: not linear)"
python3 - "$TMP/cov.json" <<'PY' || fail "the verdicts are not what they were"
import json, sys
d = json.load(open(sys.argv[1]))
lines = d["lines"]
big = [l for l in lines if l["file"] == "big.c"]
nested = [l for l in lines if l["file"] == "nested.c"]
assert len(big) == 30000, len(big)
assert len(nested) == 30000, len(nested)  # 10,000 each of #ifdef, statement, #endif
assert all(l["status"] == "never-compiled" for l in big), {l["status"] for l in big}
assert all(l["reason"]["key"] == "BENCH_BIG: target big" for l in big), big[0]["reason"]
code = [l for l in nested if l["text"].startswith("int ")]
assert all(l["status"] == "never-compiled" for l in code), {l["status"] for l in code}
deepest = code[-1]
assert deepest["text"] == "int n9999;", deepest["text"]
assert deepest["reason"]["key"].startswith("N0: "), deepest["reason"]["key"]
assert any("nested past the 32 judged" in d for d in deepest["reason"]["details"]), \
    deepest["reason"]["details"]
print("ok:", d["summary"]["line"][:120])
PY
expect_grep "addresses from 1 cover file" "$TMP/out"
expect_grep " 2500000 executed addresses" "$TMP/out"
echo "ok: coverage of 30,000 hunks, 10,000-deep #ifdefs and a 55 MB cover file in $elapsed s"
