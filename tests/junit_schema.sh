# Every JUnit file kseries writes is one CI consumers accept: apply, build,
# boot and gate, each passing, failing and skipping, and every early end
# (usage error, a check failed before any report, SIGINT, SIGTERM, SIGKILL)
# validate against tests/schemas/junit.xsd (and $KSERIES_JUNIT_XSD, e.g. an
# official junit-10.xsd), and junitparser reads the totals kseries reported
# on stdout. An early end is one testcase naming what went wrong. Testcase
# names hold no path and no commit id (they are CI's test identities).
# GitLab's `file` attribute (gitlab flavour only) names the patch or source.
# "--junit -" and "--json -" are documents on stdout, the text on stderr.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/junit_lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" \
  "$TMP/configs/matrices" "$TMP/cases/demo" "$TMP/cases/lib" "$TMP/j"
toy_kernel "$repo" 'config DEMO_A\n\tbool "a"\nconfig DEMO_B\n\tbool "b"\nconfig DEMO_IMPOSSIBLE\n\tbool "i"\n\tdepends on DEMO_B\n'
printf 'exit 0;\n' >"$repo/scripts/checkpatch.pl"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
make_series good speed fast b.c "int b;"
make_series breaks a.c "BROKEN" a.c "int a;" speed fast
# A base whose a.c differs: "breaks" does not apply there (1 failed, 2 skipped).
git -C "$repo" checkout -q -b moved "$base"
echo "int a0;" >"$repo/a.c" && git -C "$repo" add -A && git -C "$repo" commit -q -m "moved base"
moved=$(git -C "$repo" rev-parse HEAD)
git -C "$repo" checkout -q main
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
echo 'CONFIG_DEMO_IMPOSSIBLE=y' >"$TMP/configs/fragments/impossible.config"
printf 'base: tinyconfig\nfragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'base: tinyconfig\nfragments: a\nfeatures: none\n' >"$TMP/configs/targets/nopmem.target"
printf 'base: tinyconfig\nfragments: a impossible\n' >"$TMP/configs/targets/nope.target"
printf 'per-patch: toy\ncell: toy demo setups=fsdax-dev,devdax-mem\ncell: nopmem demo\n' \
  >"$TMP/configs/matrices/toy.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
tree=(--workdir "$TMP/wd" --tree "$repo" --base "$base")
configs=(--configs "$TMP/configs" --testcases "$TMP/cases")
j=$TMP/j

# Runs CMD in the background until its stderr shows PATTERN, sends SIGNAL,
# and expects exit WANT; $TMP/out and $TMP/err as expect_exit leaves them.
signal_during() {  # signal_during SIGNAL WANT PATTERN CMD...
  local signal=$1 want=$2 pattern=$3 pid got; shift 3
  set +e
  "$@" >"$TMP/out" 2>"$TMP/err" &
  pid=$!
  for _ in $(seq 100); do grep -q "$pattern" "$TMP/err" && break; sleep 0.1; done
  sleep 1  # QEMU started: the signal reaches kseries while it waits for it
  kill -"$signal" $pid
  wait $pid
  got=$?
  set -e
  [ "$got" = "$want" ] || { cat "$TMP/err"; fail "exit $got after SIG$signal, not $want: $*"; }
}

# --- apply: pass, a failed patch with the rest skipped, usage, stdout.
expect_exit 0 "$KSERIES" apply "${tree[@]}" --series "$TMP/series/demo/good" --junit "$j/apply-pass.xml"
check_junit "$j/apply-pass.xml" "$(apply_totals)"
expect_exit 1 "$KSERIES" apply --workdir "$TMP/wd" --tree "$repo" --base "$moved" \
  --series "$TMP/series/demo/breaks" --junit "$j/apply-fail.xml"
check_junit "$j/apply-fail.xml" "$(apply_totals)"
expect_grep "^tests=3 failures=1 errors=0 skipped=2" "$TMP/junit.totals"
expect_exit 2 "$KSERIES" apply "${tree[@]}" --series "$TMP/series/demo/good" --upto 9 \
  --junit "$j/apply-usage.xml"
expect_early_end "$j/apply-usage.xml" "usage error"
expect_exit 2 "$KSERIES" apply "${tree[@]}" --series "$TMP/series/demo/good" --frobnicate \
  --junit "$j/apply-option.xml"
expect_early_end "$j/apply-option.xml" "usage error"
expect_exit 0 "$KSERIES" apply "${tree[@]}" --series "$TMP/series/demo/good" --replace --junit -
cp "$TMP/out" "$j/apply-stdout.xml"
check_junit "$j/apply-stdout.xml" "tests=2 failures=0 errors=0 skipped=0"
expect_grep "^applied good 1/2" "$TMP/err"
expect_exit 2 "$KSERIES" apply "${tree[@]}" --upto 9 --series "$TMP/series/demo/good" --junit -
cp "$TMP/out" "$j/apply-usage-stdout.xml"
expect_early_end "$j/apply-usage-stdout.xml" "usage error"

# --- GitLab's `file` (gitlab flavour: GITLAB_CI set): each apply testcase
# names its patch, relative to the working directory; a per-patch build
# that breaks names the first error's source file. The default flavour
# (junit-10.xsd has no `file` on <testcase>) keeps it as "file=" in
# system-out.
grep -q '<testcase [^>]* file=' "$j/apply-fail.xml" && fail "a file attribute in the junit-10 flavour"
grep -q "<system-out>file=[^<]*series/demo/breaks/0001-" "$j/apply-fail.xml" \
  || fail "no file= line in the apply testcase's system-out"
KSERIES_JUNIT_FLAVOUR= GITLAB_CI=true expect_exit 1 env -C "$TMP" "$KSERIES" apply --workdir "$TMP/wd" --tree "$repo" \
  --base "$moved" --series series/demo/breaks --junit "$j/apply-fail-gitlab.xml"
check_junit_gitlab "$j/apply-fail-gitlab.xml" "tests=3 failures=1 errors=0 skipped=2"
(cd "$TMP" && ls series/demo/breaks/*.patch) >"$TMP/want.files"
cut -f2 "$TMP/junit.files" | diff "$TMP/want.files" - || fail "apply testcases do not name their patches"
KSERIES_JUNIT_FLAVOUR=gitlab expect_exit 1 env -C "$TMP" "$KSERIES" build "${tree[@]}" \
  "${configs[@]}" --target toy --series series/demo/breaks --per-patch --junit "$j/build-fail-gitlab.xml"
check_junit_gitlab "$j/build-fail-gitlab.xml" "$(build_totals)"
expect_grep " 1/3 [^	]*	a\.c$" "$TMP/junit.files"
expect_grep " 2/3 [^	]*	series/demo/breaks/0002-[^	]*\.patch$" "$TMP/junit.files"

# --- build: pass, a patch that breaks, not constructible, usage, a series
# that does not apply (a check failed before any report).
expect_exit 0 "$KSERIES" build "${tree[@]}" "${configs[@]}" --target toy --junit "$j/build-pass.xml"
check_junit "$j/build-pass.xml" "$(build_totals)"
expect_exit 1 "$KSERIES" build "${tree[@]}" "${configs[@]}" --target toy --series "$TMP/series/demo/breaks" \
  --per-patch --junit "$j/build-fail.xml"
check_junit "$j/build-fail.xml" "$(build_totals)"
expect_grep "^tests=3 failures=1 " "$TMP/junit.totals"
expect_exit 1 "$KSERIES" build "${tree[@]}" "${configs[@]}" --target nope --configure-only \
  --junit "$j/build-nope.xml"
check_junit "$j/build-nope.xml" "$(build_totals)"
expect_exit 2 "$KSERIES" build "${tree[@]}" "${configs[@]}" --target nosuch --junit "$j/build-usage.xml"
expect_early_end "$j/build-usage.xml" "usage error"
expect_exit 1 "$KSERIES" build --workdir "$TMP/wd" --tree "$repo" --base "$moved" "${configs[@]}" \
  --target toy --series "$TMP/series/demo/breaks" --junit "$j/build-noapply.xml"
expect_early_end "$j/build-noapply.xml" "check failed" failure

# --- boot: pass (series against base, JSON too), panic, skipped target,
# usage, SIGINT and SIGTERM while a guest hangs (130, 143), SIGKILL (the
# placeholder stays), and both documents on stdout.
boot=(boot "${tree[@]}" "${configs[@]}" --case demo)
expect_exit 0 "$KSERIES" "${boot[@]}" --target toy --series "$TMP/series/demo/good" --compare-base \
  --junit "$j/boot-pass.xml" --json "$TMP/boot-pass.json"
check_junit "$j/boot-pass.xml" "$(boot_totals "$TMP/boot-pass.json")"
expect_exit 0 "$KSERIES" "${boot[@]}" --target toy --boots 1 --setups devdax-mem \
  --junit "$j/boot-one.xml" --json "$TMP/boot-one.json"
check_junit "$j/boot-one.xml" "$(boot_totals "$TMP/boot-one.json")"
FAKE_QEMU_MODE=panic expect_exit 1 "$KSERIES" "${boot[@]}" --target toy --junit "$j/boot-panic.xml" \
  --json "$TMP/boot-panic.json"
check_junit "$j/boot-panic.xml" "$(boot_totals "$TMP/boot-panic.json")"
expect_grep "^failure boot.toy.demo boot base #1: panic: Kernel panic" "$TMP/junit.first"
expect_exit 0 "$KSERIES" "${boot[@]}" --target nopmem --junit "$j/boot-skip.xml"
check_junit "$j/boot-skip.xml" "tests=1 failures=0 errors=0 skipped=1"
expect_grep "target nopmem lacks 'pmem'" "$TMP/junit.first"
expect_exit 2 "$KSERIES" "${boot[@]}" --target toy --pmem floppy --junit "$j/boot-usage.xml"
expect_early_end "$j/boot-usage.xml" "usage error"
FAKE_QEMU_MODE=hang signal_during INT 130 "boot 1/1" "$KSERIES" "${boot[@]}" --target toy \
  --junit "$j/boot-int.xml"
expect_early_end "$j/boot-int.xml" "interrupted"
FAKE_QEMU_MODE=hang signal_during TERM 143 "boot 1/1" "$KSERIES" "${boot[@]}" --target toy \
  --junit "$j/boot-term.xml"
expect_early_end "$j/boot-term.xml" "interrupted"
FAKE_QEMU_MODE=hang signal_during KILL 137 "boot 1/1" "$KSERIES" "${boot[@]}" --target toy \
  --junit "$j/boot-kill.xml"
# SIGKILL leaves the stand-in QEMU (its own process group) behind: end it.
for pid in $(pgrep -f "qemu-system-x86_64.*$TMP" || true); do kill "$pid" 2>/dev/null || true; done
check_junit "$j/boot-kill.xml" "tests=1 failures=0 errors=1 skipped=0"
expect_grep "^error kseries.boot did not finish: kseries boot did not finish" "$TMP/junit.first"
expect_exit 0 "$KSERIES" "${boot[@]}" --target toy --boots 1 --junit -
cp "$TMP/out" "$j/boot-stdout.xml"
grep -v '^kseries \[' "$TMP/err" >"$TMP/out"  # the text report, without the progress lines
check_junit "$j/boot-stdout.xml" "$(boot_totals "$TMP/wd/runs/latest/results.json")"
expect_exit 0 "$KSERIES" "${boot[@]}" --target toy --boots 1 --json -
/usr/bin/python3 -m json.tool "$TMP/out" >/dev/null || fail "boot --json - did not print JSON alone"
expect_grep "^clock: " "$TMP/err"

# --- gate: pass, a per-patch break, a series that does not load (an error
# cell), an interrupt (SIGINT while a guest hangs), usage, JSON on stdout.
gate=(gate "${tree[@]}" "${configs[@]}" --matrix toy)
expect_exit 0 "$KSERIES" "${gate[@]}" --series "$TMP/series/demo/good" --junit "$j/gate-pass.xml"
check_junit "$j/gate-pass.xml" "$(gate_totals)"
expect_exit 1 "$KSERIES" "${gate[@]}" --series "$TMP/series/demo/breaks" --junit "$j/gate-fail.xml"
check_junit "$j/gate-fail.xml" "$(gate_totals)"
mkdir -p "$TMP/series/demo/empty/v3"
expect_exit 1 "$KSERIES" "${gate[@]}" --series "$TMP/series/demo/empty/v3" --junit "$j/gate-error.xml"
check_junit "$j/gate-error.xml" "$(gate_totals)"
expect_grep "^error gate.empty/v3 apply: " "$TMP/junit.first"
FAKE_QEMU_MODE=hang signal_during INT 130 "boot 1/1" "$KSERIES" "${gate[@]}" \
  --series "$TMP/series/demo/good" --junit "$j/gate-int.xml"
check_junit "$j/gate-int.xml" "$(gate_totals)"
expect_grep "^error gate.good toy demo: interrupted while running qemu-system-x86_64" "$TMP/junit.first"
expect_exit 2 "$KSERIES" "${gate[@]}" --junit "$j/gate-usage.xml"
expect_early_end "$j/gate-usage.xml" "usage error"
expect_exit 0 "$KSERIES" "${gate[@]}" --series "$TMP/series/demo/good" --json -
/usr/bin/python3 -m json.tool "$TMP/out" >/dev/null || fail "gate --json - did not print JSON alone"
expect_grep "^gate: PASS" "$TMP/err"

# Stable identities: no suite, class or testcase name holds a path of this
# machine or a commit id; those are properties.
for file in "$j"/*.xml; do
  xmllint --xpath '//testsuite/@name | //testcase/@classname | //testcase/@name' "$file" >"$TMP/names"
  grep -q "$TMP" "$TMP/names" && { cat "$TMP/names"; fail "$file: a test name holds a path"; }
  grep -qE '[0-9a-f]{40}' "$TMP/names" && { cat "$TMP/names"; fail "$file: a test name holds a commit id"; }
done
grep -q "commit=$base" "$j/build-pass.xml" || fail "the base build's commit is not a property"
echo "PASS"
