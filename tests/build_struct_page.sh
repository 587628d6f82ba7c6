# A target's `struct-page: N` is checked after the build against what the
# memmap dumper built for that kernel records (its .kseries.sizeof_page
# section; the stand-in make writes $FAKE_SIZEOF_PAGE there): the size
# asked for passes and is said, another size fails the build naming both,
# a target without the line reads nothing, and a cached kernel is checked
# as well as a fresh one.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
command -v objcopy >/dev/null || { echo "skipped: objcopy (binutils) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/cases/memmap-dump"
toy_kernel "$repo" 'config DEMO_A\n\tbool "a"\nconfig MODULES\n\tbool "modules"\n'
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
printf 'CONFIG_DEMO_A=y\nCONFIG_MODULES=y\n' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nstruct-page: 80\n' >"$TMP/configs/targets/big.target"
printf 'fragments: a\nstruct-page: 96\n' >"$TMP/configs/targets/bigger.target"
printf 'fragments: a\n' >"$TMP/configs/targets/plain.target"
echo 'obj-m += memmap_dump.o' >"$TMP/cases/memmap-dump/Kbuild"
echo '/* stand-in */' >"$TMP/cases/memmap-dump/memmap_dump.c"
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo" --base "$base")

FAKE_SIZEOF_PAGE=80 expect_exit 0 "$KSERIES" build "${common[@]}" --target big
expect_grep "^built big @ base" "$TMP/out"
expect_grep "test module memmap-dump: .*memmap_dump.ko" "$TMP/out"
expect_grep "sizeof(struct page) = 80 bytes, as target big requires" "$TMP/err"

# The same kernel (same tree and .config), asked to be 96: served from the
# kernel cache and still checked.
expect_exit 1 "$KSERIES" build "${common[@]}" --target bigger
expect_grep "^FAILED bigger @ base" "$TMP/out"
expect_grep "sizeof(struct page) is 80 bytes in this kernel (memmap_dump.ko's .kseries.sizeof_page): target bigger requires sizeof(struct page) 96 (struct-page: in bigger.target)" "$TMP/out"

expect_exit 0 "$KSERIES" build "${common[@]}" --target plain
expect_grep "^cached plain @ base" "$TMP/out"
if grep -q "sizeof(struct page)" "$TMP/err" "$TMP/out"; then fail "a target without struct-page: was checked"; fi
echo "PASS"
