# ci/bench on stand-ins (tests/tools/bench-kseries, bench-qemu, the fake
# make): the paired rounds alternate A B, B A, ...; the ratio and its
# interval are right on inputs whose answer is known; the build and arch
# benchmarks clean through kseries (--clean), never by path, and read the make
# time kseries recorded; the bisect table checks each culprit against its
# known-bad README; a missing kseries is an error (exit 2), not a benchmark.
source "$(dirname "$0")/lib.bash"
BENCH=$SRC/ci/bench
STAND_IN=$SRC/tests/tools/bench-kseries
export BENCH_LOG=$TMP/calls.log BENCH_TMP=$TMP
calls() { cut -d' ' -f1-"${2:-99}" "$BENCH_LOG" | tr '\n' ';'; : >"$BENCH_LOG"; }

# The arithmetic. Two rounds: the bootstrap resamples {1,1}, {2,2} (a quarter
# each) and {1,2} (a half), so the 2.5 % and 97.5 % points are the two
# rounds' own ratios (2 and 3) and the estimate is the ratio of the sums, 22/9.
expect_exit 0 python3 "$BENCH" ratio 10,5 12,4
expect_grep "^A / B: 2.444 \[2.000, 3.000\] (95 % paired bootstrap over 2 rounds)" "$TMP/out"
# Every round 2:1: a degenerate interval at the ratio.
expect_exit 0 python3 "$BENCH" ratio 3,1.5 5,2.5 7,3.5
expect_grep "^A / B: 2.000 \[2.000, 2.000\]" "$TMP/out"
expect_exit 0 python3 "$BENCH" ratio 4,2
expect_grep "^A / B: 2.000 (one round: no interval)" "$TMP/out"
# Twelve noisy rounds: the estimate is sum(a)/sum(b), and the interval holds
# it and lies within the rounds' own ratios (a ratio of sums is a weighted
# mean of them), strictly inside for this spread.
pairs=(10,9 11,10 9.5,10 12,10 10,10.5 11.5,9 10.2,9.8 9.7,10.1 10.9,9.4 10,10 12.2,10.3 9,9.9)
expect_exit 0 python3 "$BENCH" ratio "${pairs[@]}"
python3 - "$TMP/out" "${pairs[@]}" <<'PY' || fail "the interval is not what a paired bootstrap gives"
import re, sys
line = open(sys.argv[1]).read()
m = re.match(r"A / B: ([0-9.]+) \[([0-9.]+), ([0-9.]+)\]", line)
assert m, line
est, low, high = map(float, m.groups())
pairs = [tuple(map(float, p.split(","))) for p in sys.argv[2:]]
want = sum(a for a, _ in pairs) / sum(b for _, b in pairs)
ratios = [a / b for a, b in pairs]
assert abs(est - want) < 0.0005, (est, want)
assert min(ratios) < low < est < high < max(ratios), (low, est, high, ratios)
PY
expect_exit 2 python3 "$BENCH" ratio 4
expect_grep "not a pair A,B: 4" "$TMP/err"

# No kseries binary: exit 2, naming it, and nothing run.
expect_exit 2 python3 "$BENCH" --kseries "$TMP/nosuch/kseries" clock
expect_grep "no kseries binary at $TMP/nosuch/kseries" "$TMP/err"
[ ! -s "$BENCH_LOG" ] || fail "something ran without a kseries"

# clock: icount and plain TCG alternate (A B, B A, A B, B A), then the timing
# cell before and after.
expect_exit 0 python3 "$BENCH" --kseries "$STAND_IN" --rounds 4 clock
got=$(grep -o -- '--clock [a-z]*\( --boots 4\)\?' "$BENCH_LOG" | tr '\n' ';'); : >"$BENCH_LOG"
want="--clock icount;--clock wall;--clock wall;--clock icount;--clock icount;--clock wall;--clock wall;--clock icount;--clock wall --boots 4;"
[ "$got" = "$want" ] || fail "clock: the order was $got, not $want"
expect_grep "^one boot (4 setups x 30 rebinds), icount / plain TCG: [0-9.]* \[[0-9.]*, [0-9.]*\] (95 % paired bootstrap over 4 rounds)" "$TMP/out"
expect_grep "^after / before: " "$TMP/out"
# --memory: three arms rotated (icount, memory, memory with instrument=windows).
expect_exit 0 python3 "$BENCH" --kseries "$STAND_IN" --rounds 3 clock --memory
got=$(sed 's/^\(instrument=windows \)\?boot.*\(--clock [a-z]*\).*/\1\2/' "$BENCH_LOG" | tr '\n' ';'); : >"$BENCH_LOG"
want="--clock icount;--clock memory;instrument=windows --clock memory;--clock memory;instrument=windows --clock memory;--clock icount;instrument=windows --clock memory;--clock icount;--clock memory;"
[ "$got" = "$want" ] || fail "clock --memory: the order was $got, not $want"
expect_grep "^memory / icount: [0-9.]* \[" "$TMP/out"
expect_grep "^memory (instrument=windows) / icount: [0-9.]* \[" "$TMP/out"

# boot: one kseries run to learn QEMU's argv, then kseries and the raw
# command alternate; the raw side gets its own logs and a 256 MiB bulk disk.
expect_exit 0 python3 "$BENCH" --kseries "$STAND_IN" --rounds 3 boot
got=$(calls x 1)
[ "$got" = "boot;boot;raw;raw;boot;boot;raw;" ] || fail "boot: the order was $got"
expect_grep "^kseries boot+case / raw qemu, same kernel/initramfs/cmdline: " "$TMP/out"

# build: kseries build --clean against the raw make (the fake make, on the
# target's checkout), counterbalanced, then the warm rebuild with only the
# series' kernels forgotten (--clean=kernels). Nothing deleted by path.
export PATH="$SRC/tests/fake-bin:$PATH" BENCH_MAKE_SECONDS_pmem=0.1
src=$TMP/wd/targets/pmem/src
mkdir -p "$src/scripts/kconfig"
printf '#!/bin/sh\nshift 3; cfg=$1; shift; cat "$@" >>"$cfg"\n' >"$src/scripts/kconfig/merge_config.sh"
chmod +x "$src/scripts/kconfig/merge_config.sh"
echo "int a;" >"$src/a.c"
echo abc123 >"$TMP/wd/targets/pmem/src.commit"
expect_exit 0 python3 "$BENCH" --kseries "$STAND_IN" --workdir "$TMP/wd" --rounds 2 build
[ "$(grep -c -- '--target pmem --clean --junit' "$BENCH_LOG")" = 2 ] || fail "build: not two clean kseries builds"
expect_grep "^build .*--series patches/zone-device-memmap/v6 --clean=kernels" "$BENCH_LOG"
: >"$BENCH_LOG"
expect_grep "^kseries overhead over raw make: " "$TMP/out"
expect_grep "^round 1: kseries' configure, verify and record 0\.[2-9][0-9]* s, make 0.1 s" "$TMP/out"
expect_grep "^warm rebuild after patches/zone-device-memmap/v6: " "$TMP/out"
[ -f "$src/a.c" ] && [ ! -e "$TMP/wd/targets/pmem/build" ] || fail "build: ci/bench touched the work directory"

# arch: the make times kseries recorded (x86 200 s, arm64 50 s: 0.250), and
# the boots alternated; --clean rebuilds both through kseries first.
export BENCH_MAKE_SECONDS_hugetlb_nohvo=200 BENCH_MAKE_SECONDS_arm64=50
expect_exit 0 python3 "$BENCH" --kseries "$STAND_IN" --rounds 2 arch --clean
expect_grep "^build (make, as recorded): arm64 / x86 = 0.250" "$TMP/out"
got=$(grep -o -- '^[a-z]* --target [a-z0-9-]*\( --clean\)\?' "$BENCH_LOG" | tr '\n' ';')
: >"$BENCH_LOG"
want="build --target hugetlb-nohvo --clean;build --target arm64 --clean;build --target hugetlb-nohvo;build --target arm64;boot --target arm64;boot --target hugetlb-nohvo;boot --target hugetlb-nohvo;boot --target arm64;"
[ "$got" = "$want" ] || fail "arch: the calls were $got, not $want"

# bisect: each culprit against the one its README names (build-break: 3/8).
mkdir -p "$TMP/bisect"
for name in build-break tail-template-order; do
  culprit=$([ $name = build-break ] && echo 3 || echo 4)
  printf '{"series": "known-bad/%s", "check": "build", "result": {"status": "culprit", "culprit": {"index": %s}}, "cost": {"builds": 2, "cached": 4, "boots": 0, "seconds": 9.5}, "linear_scan": {"builds": 8, "boots": 0, "builds_to_culprit": 3, "boots_to_culprit": 0}}\n' \
    "$name" "$culprit" >"$TMP/bisect/$name.json"
done
expect_exit 1 python3 "$BENCH" bisect "$TMP/bisect/build-break.json" "$TMP/bisect/tail-template-order.json"
expect_grep "^known-bad/build-break  *build  *3 ok  *3  *2(4)  *0 (9s)  *8/0  *3/0" "$TMP/out"
expect_grep "^known-bad/tail-template-order  *build  *4 WRONG (culprit)  *5 " "$TMP/out"
expect_exit 0 python3 "$BENCH" bisect "$TMP/bisect/build-break.json"
# Run through the stand-in: the four bisections, each with its --json.
cp "$TMP/bisect/build-break.json" "$TMP/bisect/tail-template-order.json"
for name in private-refcount perf-regression; do cp "$TMP/bisect/build-break.json" "$TMP/bisect/$name.json"; done
export BENCH_BISECT_DIR=$TMP/bisect
expect_exit 0 python3 "$BENCH" --kseries "$STAND_IN" bisect --out "$TMP/evidence"
[ "$(grep -c '^bisect .*--json' "$BENCH_LOG")" = 4 ] || fail "bisect: not four bisections"
expect_grep "perf-regression.*--against patches/zone-device-memmap/v6" "$BENCH_LOG"
echo "PASS"
