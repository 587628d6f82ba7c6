# kseries build --per-patch with a stand-in make: every patch step is built
# incrementally, the first patch that does not build is named with the file
# and the patch that last touched it, a later fix builds again, a second
# build of the same tree is served from the cache, new warnings are listed,
# --configure-only stops before make,
# and an impossible fragment is reported as not constructible.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments"
git -C "$repo" init -q -b main
cp /dev/null "$repo/Kconfig"
printf 'config DEMO_A\n\tbool "a"\nconfig DEMO_B\n\tbool "b"\nconfig DEMO_IMPOSSIBLE\n\tbool "i"\n\tdepends on DEMO_B\n' >"$repo/Kconfig"
cat >"$repo/scripts/kconfig/merge_config.sh" <<'MERGE'
#!/bin/sh
# toy merge: append the fragments to the .config given after -m -O DIR
shift 3; cfg=$1; shift; cat "$@" >>"$cfg"
MERGE
chmod +x "$repo/scripts/kconfig/merge_config.sh"
echo "int a;" >"$repo/a.c"; echo "int b;" >"$repo/b.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
echo "int c;" >"$repo/c.c" && git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: add c"
echo "BROKEN" >>"$repo/b.c" && git -C "$repo" commit -q -am "demo: break b"
echo "int c2; /* WARN */" >>"$repo/c.c" && git -C "$repo" commit -q -am "demo: warn in c"
sed -i '/BROKEN/d' "$repo/b.c" && git -C "$repo" commit -q -am "demo: fix b"
git -C "$repo" format-patch -q -o "$TMP/series/demo/v1" --base="$base" "$base..main"
(cd "$TMP/series/demo/v1" && ls *.patch >series)

echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
echo 'CONFIG_DEMO_IMPOSSIBLE=y' >"$TMP/configs/fragments/impossible.config"
echo 'CONFIG_DEMO_TYPO=y' >"$TMP/configs/fragments/typo.config"
printf 'base: tinyconfig\nfragments: a\npurpose: toy\n' >"$TMP/configs/targets/toy.target"
printf 'base: tinyconfig\nfragments: a impossible\n' >"$TMP/configs/targets/nope.target"
printf 'base: tinyconfig\nfragments: a typo\n' >"$TMP/configs/targets/typo.target"
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --tree "$repo" --base "$base")

# --configure-only: resolved and verified, nothing compiled, nothing cached.
expect_exit 0 "$KSERIES" build "${common[@]}" --target toy --configure-only
expect_grep "^configured toy @ base .* 0 objects compiled" "$TMP/out"
expect_grep "every requested symbol kept its value; .config: .*/targets/toy/build/.config" "$TMP/out"
expect_exit 1 "$KSERIES" build "${common[@]}" --target nope --configure-only
expect_grep "^NOT-CONSTRUCTIBLE nope @ base" "$TMP/out"

expect_exit 0 "$KSERIES" build "${common[@]}" --target toy
expect_grep "^built toy @ base" "$TMP/out"

expect_exit 1 "$KSERIES" build "${common[@]}" --target toy --series "$TMP/series/demo/v1" --per-patch --junit "$TMP/junit.xml"
expect_grep "^built toy @ demo/v1 1/4 .* demo: add c (.*1 objects compiled)" "$TMP/out"
expect_grep "^FAILED toy @ demo/v1 2/4 .* demo: break b" "$TMP/out"
expect_grep "error: b.c:1: 'b' is broken (last touched by patch 2/4 'demo: break b')" "$TMP/out"
expect_grep "^built toy @ demo/v1 4/4 .* demo: fix b" "$TMP/out"
expect_grep "new warning: c.c: unused variable 'w'" "$TMP/out"
expect_grep "first patch that does not build: demo/v1 2/4 'demo: break b'" "$TMP/out"
expect_grep "build toy @ demo/v1 3/4" "$TMP/err"
expect_grep '<testsuites tests="4" failures="2"' "$TMP/junit.xml"

# The tip again: served from the cache, nothing compiled.
expect_exit 0 "$KSERIES" build "${common[@]}" --target toy --series "$TMP/series/demo/v1"
expect_grep "^cached toy @ demo/v1 4/4" "$TMP/out"

# --clean: the tip's cached kernel and the build directory are forgotten, so
# make compiles every object again (a, b, c); the base's kernel (another
# tree) is still served from the cache.
expect_exit 0 "$KSERIES" build "${common[@]}" --target toy --series "$TMP/series/demo/v1" --clean
expect_grep "clean: 1 cached kernel(s) of toy removed, and its build directory" "$TMP/err"
expect_grep "^built toy @ demo/v1 4/4 .*(.*3 objects compiled" "$TMP/out"
[ "$(ls -d "$TMP"/wd/kernels/*.removed 2>/dev/null)" = "" ] || fail "--clean left a .removed directory"
expect_exit 0 "$KSERIES" build "${common[@]}" --target toy
expect_grep "^cached toy @ base" "$TMP/out"

expect_exit 1 "$KSERIES" build "${common[@]}" --target nope
expect_grep "^NOT-CONSTRUCTIBLE nope @ base" "$TMP/out"
expect_grep "dropped: CONFIG_DEMO_IMPOSSIBLE=y (impossible.config:1) is n: Kconfig:5 depends on DEMO_B; unmet: DEMO_B=n" "$TMP/out"

expect_exit 2 "$KSERIES" build "${common[@]}" --target typo
expect_grep "typo.config:1: unknown Kconfig symbol CONFIG_DEMO_TYPO" "$TMP/err"
expect_exit 2 "$KSERIES" build "${common[@]}" --target missing
expect_grep "unknown target 'missing'.*known targets: nope, toy, typo" "$TMP/err"
echo "PASS"
