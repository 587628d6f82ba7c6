# Two kseries on one work directory and one target (issue 45): a kernel is
# filed only under the commit it was built from.
#  1. A builds revision R1 with a stand-in make that sleeps between reading
#     two files; B, started while A's make runs, builds R2: B waits for the
#     target's lock (it says so), checks out only after A stored its kernel,
#     and each stored kernel holds its own revision's sources.
#  2. A program that takes no lock rewrites a source file while make runs
#     (the stand-in make does it, once): the kernel is not stored, the file
#     is restored from the commit and the kernel built again.
#  3. `kseries build --verify` proves the store, and finds a tampered image,
#     a tampered source list, and a kernel stored with no record of its
#     sources (what an older kseries left: the poisoned entry of issue 45).
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
repo=$TMP/toy
mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
echo "int b;" >"$repo/b.c"
echo "#define K 1" >"$repo/k.h"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
printf 'CONFIG_DEMO_A=y\n' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\n' >"$TMP/configs/targets/toy.target"
echo "int a = 1;" >"$repo/a.c" && git -C "$repo" commit -q -am r1 && r1=$(git -C "$repo" rev-parse HEAD)
echo "int a = 2;" >"$repo/a.c" && git -C "$repo" commit -q -am r2 && r2=$(git -C "$repo" rev-parse HEAD)
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --tree "$repo" --target toy)

# 1. Two builds at once.
rm -f "$TMP/a.mark"
FAKE_MAKE_MARK=$TMP/a.mark FAKE_MAKE_SLEEP=3 "$KSERIES" build "${common[@]}" --base "$r1" \
  >"$TMP/a.out" 2>"$TMP/a.err" &
a=$!
wait_until 60 test -e "$TMP/a.mark" || fail "A's make never started"
"$KSERIES" build "${common[@]}" --base "$r2" >"$TMP/b.out" 2>"$TMP/b.err" &
b=$!
wait "$a" || { cat "$TMP/a.err"; fail "A failed"; }
a_done=$(date +%s.%N)
wait "$b" || { cat "$TMP/b.err"; fail "B failed"; }
expect_grep "waiting for another kseries that is building target toy" "$TMP/b.err"
if grep -q "waiting for another kseries" "$TMP/a.err"; then fail "A waited"; fi
expect_grep "^built toy @ base" "$TMP/a.out"
expect_grep "^built toy @ base" "$TMP/b.out"
# B's checkout came after A had stored its kernel: B's progress shows its
# checkout, and A's image holds R1's a.c, B's R2's.
expect_grep "checkout ${r2:0:12}" "$TMP/b.err"
image_of() {  # image_of COMMIT: the stored image the index files under COMMIT
  local key
  key=$(cat "$TMP/wd/targets/toy/kernels/$1")
  cat "$TMP/wd/kernels/$key/bzImage"
}
image_of "$r1" | grep -qx "int a = 1;" || { image_of "$r1"; fail "R1's kernel is not built from R1"; }
image_of "$r2" | grep -qx "int a = 2;" || { image_of "$r2"; fail "R2's kernel is not built from R2"; }
expect_grep "sources: 3 file(s) make read checked against tree" "$TMP/a.err"

# 2. A write into the checkout while make runs, by something that takes no
# lock: never stored, rebuilt from the commit.
printf 'CONFIG_DEMO_A=y\n# another request\n' >"$TMP/configs/fragments/a.config"
expect_exit 0 env FAKE_MAKE_MUTATE="b.c:int b = 666;" FAKE_MAKE_MUTATE_DONE="$TMP/mutated" \
  "$KSERIES" build "${common[@]}" --base "$r1"
[ -e "$TMP/mutated" ] || fail "the stand-in make did not write into the checkout"
expect_grep "the source tree changed while make ran: 1 file(s) (b.c): not stored; the files are restored from commit ${r1:0:12}" "$TMP/err"
image_of "$r1" | grep -qx "int a = 1;" || { image_of "$r1"; fail "the kernel stored is not R1's"; }
if image_of "$r1" | grep -q 666; then fail "the kernel stored holds the other program's b.c"; fi

# 3. --verify: all proven, then three tampered entries.
expect_exit 0 "$KSERIES" build --workdir "$TMP/wd" --verify
expect_grep "^verified 3 stored kernel(s): all proven" "$TMP/out"
expect_grep "^ok .* toy @ ${r2:0:12}: 3 source file(s) against commit ${r2:0:12}'s tree" "$TMP/out"
key2=$(cat "$TMP/wd/targets/toy/kernels/$r2")
cp "$TMP/wd/kernels/$key2/bzImage" "$TMP/bz"
sed -i 's/int a = 2;/int a = 7;/' "$TMP/wd/kernels/$key2/bzImage"
expect_exit 1 "$KSERIES" build --workdir "$TMP/wd" --verify --target toy
expect_grep "^FAIL ${key2:0:12} toy @ ${r2:0:12}: bzImage: its SHA-256 is not the one recorded" "$TMP/out"
expect_grep "^verified 3 stored kernel(s) of target toy: 1 failed" "$TMP/out"
cp "$TMP/bz" "$TMP/wd/kernels/$key2/bzImage"
# The source list names R1's a.c for R2's kernel (the build.json digest kept).
blob1=$(git -C "$repo" rev-parse "$r1:a.c")
sed -i "s/^a.c\t.*/a.c\t$blob1/" "$TMP/wd/kernels/$key2/sources.tsv"
expect_exit 1 "$KSERIES" build --workdir "$TMP/wd" --verify
expect_grep "sources.tsv is not the one recorded" "$TMP/out"
expect_grep "built from a.c blob ${blob1:0:12}, commit ${r2:0:12} has " "$TMP/out"
# An entry an older kseries stored: no record of its sources. Never reused
# (the next build of R2 makes it again), and --verify names it.
python3 - "$TMP/wd/kernels/$key2/build.json" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
record.pop("source_check")
json.dump(record, open(sys.argv[1], "w"))
PY
expect_exit 1 "$KSERIES" build --workdir "$TMP/wd" --verify
expect_grep "^FAIL ${key2:0:12} toy @ ${r2:0:12}: no record of the sources it was built from" "$TMP/out"
printf 'CONFIG_DEMO_A=y\n' >"$TMP/configs/fragments/a.config"  # R2's request again
expect_exit 0 "$KSERIES" build "${common[@]}" --base "$r2"
expect_grep "kernel ${key2:0:12} in the cache is not reused: no record of the sources" "$TMP/err"
expect_grep "^built toy @ base" "$TMP/out"
expect_exit 0 "$KSERIES" build --workdir "$TMP/wd" --verify
echo "PASS"
