# The oracle ktap with stand-in make and QEMU: a test payload (a Makefile
# in testcases/) is built beside each kernel and stores the tree's KTAP
# parser; the guest's KTAP (the kernel's own recorded outputs, from
# tools/testing/kunit/test_data, taken from Debian's linux-source-6.12
# tarball as the parser is: nothing of the tree is copied here) is read by
# that parser and judged against the base's. A new failure fails the
# session and is named; a test skipped on one side is named and counted as
# not applicable, never as a pass; the same results on both sides pass.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }
tarball=${KSERIES_LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -f "$tarball" ] || { echo "skipped: $tarball (linux-source-6.12) is not installed"; exit 77; }
# The tree's KTAP parser and three KTAP outputs the KUnit maintainers
# recorded (tools/testing/kunit/test_data): about 25 s of xz.
kunit=linux-source-6.12/tools/testing/kunit
tar -xJf "$tarball" -C "$TMP" --wildcards "$kunit/kunit_p*.py" \
  "$kunit/test_data/test_is_test_passed-all_passed.log" \
  "$kunit/test_data/test_is_test_passed-failure.log" "$kunit/test_data/test_skip_tests.log"
data=$TMP/ktap-data
mkdir -p "$data/kunit"
mv "$TMP/$kunit"/kunit_p*.py "$data/kunit/"
mv "$TMP/$kunit/test_data"/*.log "$data/"
repo=$TMP/toy
toy_kernel "$repo" 'config DEMO_A\n\tbool "a"\nconfig MODULES\n\tbool "modules"\n'
echo "int a;" >"$repo/a.c"
mkdir -p "$repo/tools/testing/kunit"
cp "$data/kunit/kunit_parser.py" "$data/kunit/kunit_printer.py" "$repo/tools/testing/kunit/"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
# One-patch series the stand-in QEMU runs with other KTAP ("ktap_WORD" in
# the kernel image: tests/fake-bin/qemu-system-x86_64).
series() {  # series NAME TEXT
  git -C "$repo" checkout -q -b "$1" "$base"
  echo "$2" >"$repo/b.c" && git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: $1"
  git -C "$repo" format-patch -q -o "$TMP/series/$1/v1" --base="$base" HEAD~1
  (cd "$TMP/series/$1/v1" && ls *.patch >series)
  git -C "$repo" checkout -q main
}
series bad "int ktap_bad;"
series skip "int ktap_skip;"
series good "int b;"

mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/cases/lib" "$TMP/cases/own" \
  "$TMP/cases/payload"
printf 'CONFIG_DEMO_A=y\nCONFIG_MODULES=y\n' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem kselftest\n' >"$TMP/configs/targets/toy.target"
printf '#!/bin/sh\n' >"$TMP/cases/lib/init"
printf '#!/bin/sh\n' >"$TMP/cases/own/guest.sh"
chmod +x "$TMP/cases/own/guest.sh"
printf 'description: the kernel'"'"'s own tests\nneeds: kselftest\ntimeout: 30\nmodules: payload\noracle: ktap\nsetups: example skips\n' \
  >"$TMP/cases/own/case.conf"
# The payload: the tree's KTAP parser for the host, an empty tar for the guest.
cat >"$TMP/cases/payload/Makefile" <<'EOF'
KSERIES_EXPORT := tools/testing/kunit
all:
	mkdir -p $(OUT)/kunit $(OUT)/root
	cp $(SRC)/tools/testing/kunit/*.py $(OUT)/kunit/
	tar -cf $(OUT)/payload.tar -C $(OUT)/root .
EOF
# The guest's KTAP per setup: "example" passes, and has a new failure
# (example/example_simple_test) on the bad kernel; "skips" runs
# example_skip_test (it passes) except on the skip kernel, which skips it.
mkdir -p "$TMP/ktap"
cp "$data/test_is_test_passed-all_passed.log" "$TMP/ktap/example.ktap"
cp "$data/test_is_test_passed-failure.log" "$TMP/ktap/example.bad.ktap"
sed 's/ok 2 - example_skip_test # SKIP this test should be skipped/ok 2 - example_skip_test/' \
  "$data/test_skip_tests.log" >"$TMP/ktap/skips.ktap"
cp "$data/test_skip_tests.log" "$TMP/ktap/skips.skip.ktap"
: >"$TMP/kvm"
export KSERIES_KVM_DEVICE=$TMP/kvm FAKE_QEMU_KTAP=$TMP/ktap
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base" --target toy --case own)

# 1. The bad series: a new failure fails the session, named.
expect_exit 1 "$KSERIES" boot "${common[@]}" --series "$TMP/series/bad/v1" --compare-base \
  --setups example --junit "$TMP/bad.xml"
expect_grep "example/example_simple_test" "$TMP/out"
expect_grep "2 new failure(s), 0 pre-existing.*new: example/example, example/example/example_simple_test" "$TMP/out"
expect_grep "FAILED oracle bad/v1 example/example/example_simple_test: new failure (candidate fail 1 of 1 boot; base pass 1 of 1 boot)" "$TMP/out"
expect_grep 'example/example_simple_test' "$TMP/bad.xml"
grep -q 'sysctl_test_dointvec_null_tbl_data' "$TMP/bad.xml" \
  || fail "the passing tests are not one JUnit testcase each"
# The parser that read it is the tree's, stored beside the kernel.
ls "$TMP"/wd/kernels/*/modules/payload*/kunit/kunit_parser.py >/dev/null \
  || fail "no copy of the tree's kunit_parser.py beside the kernel"

# 2. The good series, the base's results: a pass, no new failure.
expect_exit 0 "$KSERIES" boot "${common[@]}" --series "$TMP/series/good/v1" --compare-base \
  --setups example
grep -E "[1-9][0-9]* new failure" "$TMP/out" && fail "the good series has a new failure"

# 3. A test the base ran and the candidate skipped: named, not applicable,
# never a pass.
expect_exit 0 "$KSERIES" boot "${common[@]}" --series "$TMP/series/skip/v1" --compare-base \
  --setups skips --junit "$TMP/skip.xml"
expect_grep "skips/example/example_skip_test: skip: skipped on the candidate, ran on the base (candidate skip 1 of 1 boot; base pass 1 of 1 boot)" "$TMP/out"
expect_grep "1 skipped on one side only" "$TMP/out"
grep -A1 'name="skips/example/example_skip_test #1"' "$TMP/skip.xml" | grep -q '<skipped message="skipped on the candidate' \
  || fail "the test the candidate skipped is not a JUnit skip"
expect_grep 'skipped="1"' "$TMP/skip.xml"

# 4. Recorded on a real guest (tests/data/ktap-recorded): the kernel log of a
# KUnit module's load, timestamps and the kernel's other messages between
# its results, read by the tree's parser: every result, each a test path.
cp "$SRC/tests/data/ktap-recorded/memcpy_kunit.ktap" "$TMP/ktap/memcpy_kunit.ktap"
expect_exit 0 "$KSERIES" boot "${common[@]}" --series "$TMP/series/good/v1" --compare-base \
  --setups memcpy_kunit --junit "$TMP/memcpy.xml"
expect_grep "memcpy_kunit (summary): pass: 7 tests against base: 7 pass, 0 new failure(s)" "$TMP/out"
expect_grep 'name="memcpy_kunit/memcpy/memmove_overlap_test #1"' "$TMP/memcpy.xml"

# 5. Recorded on a real guest: hmm-tests under run_vmtests.sh, made KTAP by
# testcases/lib/kselftest-nest.awk, with four failures on the base as on the
# candidate: pre-existing, named, never new; the program's 58 results are
# read under it (59 tests).
cp "$SRC/tests/data/ktap-recorded/hmm.ktap" "$TMP/ktap/hmm.ktap"
expect_exit 0 "$KSERIES" boot "${common[@]}" --series "$TMP/series/good/v1" --compare-base \
  --setups hmm --junit "$TMP/hmm.xml"
expect_grep "hmm (summary): pass: 59 tests against base: 25 pass, 0 new failure(s), 4 pre-existing, 0 flaky, 0 skipped on one side only, 30 skipped" "$TMP/out"
expect_grep "hmm/test_hmm.sh smoke/hmm.hmm_device_private.exclusive: skip: pre-existing failure: fails on the base too" "$TMP/out"
expect_grep 'name="hmm/test_hmm.sh smoke/hmm2.hmm2_device_private.snapshot #1"' "$TMP/hmm.xml"

# 6. Recorded on a real guest (target nfit): ndctl's libndctl test on
# nfit_test, on the base (passes) and on the known-bad broken-alt-name
# kernel (fails: "expected alt_name"): a new failure, named.
cp "$SRC/tests/data/ktap-recorded/libndctl.ktap" "$TMP/ktap/libndctl.ktap"
cp "$SRC/tests/data/ktap-recorded/libndctl.alt-name.ktap" "$TMP/ktap/libndctl.bad.ktap"
expect_exit 1 "$KSERIES" boot "${common[@]}" --series "$TMP/series/bad/v1" --compare-base \
  --setups libndctl --junit "$TMP/libndctl.xml"
expect_grep "FAILED oracle bad/v1 libndctl/libndctl: new failure (candidate fail 1 of 1 boot; base pass 1 of 1 boot)" "$TMP/out"
expect_grep 'name="libndctl/libndctl #1"' "$TMP/libndctl.xml"
expect_exit 0 "$KSERIES" boot "${common[@]}" --series "$TMP/series/good/v1" --compare-base \
  --setups libndctl
expect_grep "libndctl (summary): pass: 1 tests against base: 1 pass, 0 new failure(s)" "$TMP/out"

