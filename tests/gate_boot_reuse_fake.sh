# --reuse-base-boots: under icount a base boot identical to an earlier one
# (same kernel image, initramfs, QEMU arguments) is reused, not booted again:
# a gate of two revisions boots the base once, a second gate none, and the
# verdicts and figures stay those of booted runs. Nothing is reused without
# the option, under the wall clock, or for another base kernel. With
# --reuse-boots the series' boots are reused the same way.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/kernel
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" \
  "$TMP/configs/matrices" "$TMP/cases/demo" "$TMP/cases/lib"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
# The speed file (in the stand-in image): a revision changes its first line,
# the other base its last, so each revision applies onto either base (a new
# file over an existing one would not: git am refuses it).
printf 'rev\n2\n3\n4\n5\n6\n7\nbase\n' >"$repo/speed"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
kbase=$(git -C "$repo" rev-parse HEAD)
for name in b c; do
  git -C "$repo" checkout -q -B "$name" "$kbase"
  # Each revision's stand-in kernel image differs ("kernel b", "kernel c":
  # tests/fake-bin/make writes the tree's speed file into it; neither word
  # changes the stand-in's timings).
  echo "int $name;" >"$repo/$name.c" && sed -i "1s/.*/$name/" "$repo/speed"
  git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: add $name"
  git -C "$repo" format-patch -q -o "$TMP/series/demo/$name" --base="$kbase" "$kbase..HEAD"
  (cd "$TMP/series/demo/$name" && ls *.patch >series)
done
git -C "$repo" checkout -q main
sed -i '$s/.*/slow/' "$repo/speed" && git -C "$repo" add -A && git -C "$repo" commit -q -m "another base"
other=$(git -C "$repo" rev-parse HEAD)
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'cell: toy demo setups=fsdax-dev\n' >"$TMP/configs/matrices/toy.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
gate=(gate --workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
      --matrix toy --series "$TMP/series/demo/b" --series "$TMP/series/demo/c")
reused() { grep -c "^kseries \[.*\] boot 1 base: the same boot .* reused$" "$TMP/err" || true; }
booted() {  # every base boot reports its measurements, a reused one too
  echo $(($(grep -c "^kseries \[.*\] boot 1 base: [0-9]* measurements" "$TMP/err" || true) - $(reused)))
}
verdicts() { grep "^  \(pass\|fail\|error\)  \|verdict:" "$TMP/out" | sed 's/ ([0-9]* s)$//'; }

# Without the option: the base boots once per revision.
expect_exit 0 "$KSERIES" "${gate[@]}" --base "$kbase"
[ "$(booted)" = 2 ] && [ "$(reused)" = 0 ] || fail "without the option: $(booted) booted, $(reused) reused"
[ ! -e "$TMP/wd/boot-cache" ] || fail "a boot cache without the option"
verdicts >"$TMP/booted.txt"

# With it: booted once, kept, reused for the second revision.
expect_exit 0 "$KSERIES" "${gate[@]}" --base "$kbase" --reuse-base-boots
[ "$(booted)" = 1 ] && [ "$(reused)" = 1 ] || fail "first gate: $(booted) booted, $(reused) reused"
# A second gate: nothing of the base boots again; same verdicts as booted.
expect_exit 0 "$KSERIES" "${gate[@]}" --base "$kbase" --reuse-base-boots
[ "$(booted)" = 0 ] && [ "$(reused)" = 2 ] || fail "second gate: $(booted) booted, $(reused) reused"
expect_grep "^gate: PASS" "$TMP/out"
verdicts | diff "$TMP/booted.txt" - || fail "the reused base gives other cell verdicts"
run=$(sed -n 's/^run directory //p' "$TMP/out")
[ -s "$run/cells/b-toy-demo/base-1.console.log" ] || fail "the reused boot's console is not in the run directory"
grep -q '"memmap_init' "$run/cells/b-toy-demo/results.json" || fail "no base figures in the reused cell"

# --reuse-boots: the series' kernels too. The first such gate boots each
# revision's kernel once (the base comes from the cache), the second boots
# nothing: a resent revision gets its verdict from the boots of its
# byte-identical kernel, the same verdicts as booted.
all_reused() { grep -c "^kseries \[.*\] boot 1 .*: the same boot .* reused$" "$TMP/err" || true; }
expect_exit 0 "$KSERIES" "${gate[@]}" --base "$kbase" --reuse-boots
[ "$(all_reused)" = 2 ] && [ "$(reused)" = 2 ] || fail "--reuse-boots, first: $(all_reused) reused, $(reused) of the base"
expect_exit 0 "$KSERIES" "${gate[@]}" --base "$kbase" --reuse-boots
[ "$(all_reused)" = 4 ] || fail "--reuse-boots, second: $(all_reused) boots reused, not 4"
verdicts | diff "$TMP/booted.txt" - || fail "reused series boots give other cell verdicts"
# A resent revision (the same patches in another directory) builds the same
# kernel: its boots come from the cache, the other revision's still boot.
cp -r "$TMP/series/demo/b" "$TMP/series/demo/b-resent"
resend=(gate --workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --matrix toy --base "$kbase" --series "$TMP/series/demo/b-resent" --reuse-boots)
expect_exit 0 "$KSERIES" "${resend[@]}"
[ "$(all_reused)" = 2 ] || fail "a resent revision: $(all_reused) boots reused, not 2 (base and series)"
expect_grep "^gate: PASS" "$TMP/out"

# Another base kernel (the stand-in image differs) is never served from the
# cache; nor is a wall-clock boot.
expect_exit 0 "$KSERIES" "${gate[@]}" --base "$other" --reuse-base-boots
[ "$(booted)" = 1 ] || fail "another base: $(booted) booted, $(reused) reused"
# (one wall-clock boot a side of the stand-in may well differ: any verdict)
expect_exit "0|1" "$KSERIES" "${gate[@]}" --base "$kbase" --reuse-base-boots --clock wall
[ "$(booted)" = 2 ] && [ "$(reused)" = 0 ] || fail "wall clock: $(booted) booted, $(reused) reused"
echo "PASS"
