# testcases/lib/kselftest-nest.awk (the guest's filter of run_vmtests.sh
# output) read by the tree's own kunit_parser.py (from Debian's
# linux-source-6.12 tarball, as boot_ktap_fake.sh takes it). The input is
# run_vmtests.sh -t mkdirty of the 6.12.118 guest on 2026-12-06, rebuilt
# from the KTAP the guest sent (run 20261206-131754-boot) by undoing the
# filter (the guest keeps no raw copy): the program's lines behind "# "
# (tap_prefix), its skips without a description ("ok 3 # SKIP mbind()
# failed", kselftest.h's ksft_test_result_skip()), which the
# parser did not match until the filter gave them a second space: it then
# counted two of six results as crashed.
source "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }
tarball=${KSERIES_LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -f "$tarball" ] || { echo "skipped: $tarball (linux-source-6.12) is not installed"; exit 77; }
kunit=linux-source-6.12/tools/testing/kunit
tar -xJf "$tarball" -C "$TMP" --wildcards "$kunit/kunit_p*.py"
cat >"$TMP/raw" <<'RAW'
TAP version 13
# SKIP ./on-fault-limit
# ./run_vmtests.sh: line 381: sudo: command not found
# -unnin--./mkdi-ty
# running ./mkdirty
# -unnin--./mkdi-ty
# # [INFO] detected THP size: 2048 KiB
# TAP version 13
# 1..6
# # [INFO] PTRACE write access
# ok 1 SIGSEGV generated, page not modified
# # [INFO] PTRACE write access to THP
# ok 2 SIGSEGV generated, page not modified
# # [INFO] Page migration
# ok 3 # SKIP mbind() failed
# # [INFO] Page migration of THP
# ok 4 # SKIP mbind() failed
# # [INFO] PTE-mapping a THP
# ok 5 SIGSEGV generated, page not modified
# # [INFO] UFFDIO_COPY
# ok 6 SIGSEGV generated, page not modified
# # Totals: pass:4 fail:0 xfail:0 xpass:0 skip:2 error:0
# [PASS]
ok 1 mkdirty
# SUMMARY: PASS=1 SKIP=0 FAIL=0
1..1
RAW
awk -f "$SRC/testcases/lib/kselftest-nest.awk" "$TMP/raw" >"$TMP/ktap" || fail "the filter failed"
(cd "$TMP/$kunit" && python3 -c '
import sys, kunit_parser
with open(sys.argv[1]) as f:
    test = kunit_parser.parse_run_tests(f.readlines())
def walk(t, depth):
    print("  " * depth + t.status.name + " " + repr(t.name))
    for s in t.subtests:
        walk(s, depth + 1)
walk(test, 0)
' "$TMP/ktap") >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "kunit_parser failed"; }
cat "$TMP/out"
grep -q 'ERROR' "$TMP/out" && fail "the parser reported an error"
grep -q 'CRASHED' "$TMP/out" && fail "a result was read as crashed"
[ "$(grep -c "SKIPPED ''" "$TMP/out")" = 2 ] || fail "not two skipped results without a name"
[ "$(grep -c "SUCCESS 'SIGSEGV generated, page not modified'" "$TMP/out")" = 4 ] || fail "not four passes"
grep -q '^ok 3  # SKIP mbind() failed$' "$TMP/ktap" || fail "the unnamed skip is not given its second space"
echo "ok"
