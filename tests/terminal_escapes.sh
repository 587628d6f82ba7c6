# Escape sequences from the kernel under test (a console line, a panic
# title, the guest's result reasons) never reach the user's terminal or a
# text report raw: ESC, BEL, CR and 8-bit CSI are shown as visible
# characters (core/utf8.h printable_text). They used to pass through: an
# "ESC[2K CR ESC[1A" followed by a fake "gate: PASS" line, a window-title
# change, an OSC 52 clipboard write.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts" "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/configs/matrices"
toy_kernel "$repo"
printf 'exit 0;\n' >"$repo/scripts/checkpatch.pl"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm FAKE_QEMU_ESCAPES=1
tree=(--workdir "$TMP/wd" --tree "$repo" --base "$base")
configs=(--configs "$TMP/configs" --testcases "$TMP/cases")
# no_controls FILE...: no ESC, BEL, bare CR or C1 CSI byte in any of them.
no_controls() {
  local file
  for file in "$@"; do
    if LC_ALL=C grep -q "$(printf '[\033\007]')" "$file" ||
      LC_ALL=C grep -q "$(printf '\302\233')" "$file" ||
      LC_ALL=C grep -q "$(printf '\r[^\n]')" "$file"; then
      LC_ALL=C cat -v "$file" | head -40
      fail "a terminal control reached $file"
    fi
  done
}

# A clean boot: the result reasons carry the escapes.
expect_exit 0 "$KSERIES" boot "${tree[@]}" "${configs[@]}" --case demo --target toy --boots 1
no_controls "$TMP/out" "$TMP/err"
expect_grep "$(printf '\342\220\233')\[2K" "$TMP/out"  # ESC shown as U+241B
# A panic: its title (from the console) is in the report.
FAKE_QEMU_MODE=panic expect_exit 1 "$KSERIES" boot "${tree[@]}" "${configs[@]}" --case demo \
  --target toy --boots 1
no_controls "$TMP/out" "$TMP/err"
expect_grep "panic: Kernel panic" "$TMP/out"
# Through the gate: stdout, stderr and gate.txt.
echo "int c;" >"$repo/c.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: add c"
git -C "$repo" format-patch -q -o "$TMP/series/demo/v1" --base="$base" HEAD~1
(cd "$TMP/series/demo/v1" && ls *.patch >series)
printf 'cell: toy demo setups=fsdax-dev\n' >"$TMP/configs/matrices/toy.matrix"
FAKE_QEMU_MODE=panic expect_exit 1 "$KSERIES" gate "${tree[@]}" "${configs[@]}" --matrix toy \
  --series "$TMP/series/demo/v1"
no_controls "$TMP/out" "$TMP/err" "$TMP/wd/runs/latest/gate.txt"
expect_grep "Kernel panic" "$TMP/wd/runs/latest/gate.txt"
echo "PASS"
