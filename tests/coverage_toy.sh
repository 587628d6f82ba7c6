# kseries coverage on a toy tree: a two-patch series over a.c, b.c and a
# header, compiled for real with gcc -g (a real DWARF line table), and a
# cover file made from that table's own addresses for the lines a "run"
# executed (the plugin's format). Checks each class of line: executed,
# compiled but never run (a header line in two objects), never compiled
# under an #ifdef whose symbol only another architecture declares, never
# compiled under IS_ENABLED() with the target that sets it, a macro, and a
# line of patch 1 that patch 2 moves (it keeps patch 1's identity).
source "$(dirname "$0")/lib.bash"
command -v /usr/bin/gcc >/dev/null || { echo "skipped: no gcc"; exit 77; }
command -v objdump >/dev/null || { echo "skipped: no objdump"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/inc" "$repo/arch/m68k" "$TMP/configs/targets" "$TMP/configs/fragments"
git -C "$repo" init -q -b main
printf 'config TOY_SAN\n\tbool "sanitizer"\n' >"$repo/Kconfig"
printf 'config TOY_OFF\n\tbool "m68k only"\n\tdepends on MMU\n' >"$repo/arch/m68k/Kconfig"
cat >"$repo/inc/h.h" <<'EOF'
#pragma once
#define IS_ENABLED(option) 0
static inline int base_helper(int v) { return v; }
EOF
cat >"$repo/a.c" <<'EOF'
#include "inc/h.h"
int a(int v)
{
	return base_helper(v);
}
int main(void)
{
	return a(1);
}
EOF
cat >"$repo/b.c" <<'EOF'
#include "inc/h.h"
int b(int v)
{
	return base_helper(v) + 1;
}
EOF
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
# Patch 1: a helper and a macro in the header, used by a.c and b.c.
cat >>"$repo/inc/h.h" <<'EOF'
#define TOY_TWICE(x) ((x) * 2)
static inline int toy_add(int v)
{
	return v + 3;
}
EOF
cat >"$repo/a.c" <<'EOF'
#include "inc/h.h"
int a(int v)
{
	int w = toy_add(v);
#ifdef CONFIG_TOY_OFF
	w += 100;
#endif
	return TOY_TWICE(w);
}
int main(void)
{
	return a(1);
}
EOF
sed -i 's/return base_helper(v) + 1;/return toy_add(v) + 1;/' "$repo/b.c"
git -C "$repo" commit -q -am "toy: add toy_add() and TOY_TWICE()"
# Patch 2: a function above a() (a()'s lines move down by 7) with a
# sanitizer branch.
sed -i '1a\
int sometimes(int v)\
{\
	if (IS_ENABLED(CONFIG_TOY_SAN))\
		return 0;\
	return v * 7;\
}\
' "$repo/a.c"
git -C "$repo" commit -q -am "toy: add sometimes()"
git -C "$repo" format-patch -q -o "$TMP/series/toy/v1" --base="$base" "$base..main"
(cd "$TMP/series/toy/v1" && ls *.patch >series)

# The "kernel": the tip compiled with debug information, and its .config.
mkdir -p "$TMP/kernel"
(cd "$repo" && /usr/bin/gcc -g -O1 -fno-inline -o "$TMP/kernel/vmlinux" a.c b.c)
printf 'CONFIG_TOY_ON=y\n# CONFIG_TOY_SAN is not set\n' >"$TMP/kernel/.config"
echo 'CONFIG_TOY_SAN=y' >"$TMP/configs/fragments/san.config"
echo 'CONFIG_TOY_ON=y' >"$TMP/configs/fragments/on.config"
printf 'fragments: on\n' >"$TMP/configs/targets/toy.target"
printf 'fragments: on san\n' >"$TMP/configs/targets/toy-san.target"
# A "run" that executed a() (tip lines 11-15): the addresses of its rows, as
# the plugin's cover= mode writes executed instructions.
objdump --dwarf=decodedline "$TMP/kernel/vmlinux" |
  awk '$1 == "a.c" && $2 >= 11 && $2 <= 15 && $3 ~ /^0x/ { print $3 }' | sort -u >"$TMP/pcs"
[ -s "$TMP/pcs" ] || fail "no line-table rows for a.c:11-15"
{ echo "kseries-cover version=1 min=0x0"; sed 's/$/ 1/' "$TMP/pcs"; echo "end pcs=$(wc -l <"$TMP/pcs")"; } >"$TMP/cover"

common=(--workdir "$TMP/wd" --tree "$repo" --base "$base" --series "$TMP/series/toy/v1"
        --configs "$TMP/configs" --source "$repo")
vmlinux=(--vmlinux "$TMP/kernel/vmlinux")
expect_exit 0 "$KSERIES" coverage "${common[@]}" "${vmlinux[@]}" --cover "$TMP/cover" --json "$TMP/cov.json"
cp "$TMP/out" "$TMP/table"
# Patch 1's toy_add() call, moved from a.c:4 to a.c:11 by patch 2, executed.
expect_grep "^  1 a.c:11 executed \[ran 1x, 1 unit(s)\] | 	int w = toy_add(v);" "$TMP/table"
# Its #ifdef line: m68k's symbol, impossible here.
expect_grep "^  1 a.c:13 never-compiled \[TOY_OFF: not possible on x86_64 (declared only in other architectures' Kconfig)\] | 	w += 100;" "$TMP/table"
# The header's toy_add() body: compiled into a.c's and b.c's objects, never run.
expect_grep "^  1 inc/h.h:7 compiled \[2 unit(s)\]" "$TMP/table"
# The macro's definition: not counted.
expect_grep "^  1 inc/h.h:4 macro | #define TOY_TWICE" "$TMP/table"
# Patch 2's sanitizer branch: never compiled; the target toy-san sets it.
expect_grep "^  2 a.c:5 never-compiled \[TOY_SAN: target toy-san\]" "$TMP/table"
expect_grep "^  2 a.c:6 compiled" "$TMP/table"
expect_grep "^coverage: 2 of 12 changed lines executed; 2 never compiled (TOY_OFF: not possible on x86_64 .*, TOY_SAN: target toy-san), 8 compiled, never run (b.c:4; inc/h.h:6-8; a.c:3-4,6-7); not counted: 5 without code of their own, 1 in macro definitions$" "$TMP/table"
# The JSON says the same, line by line.
[ "$(jq -r '.lines[] | select(.file == "a.c" and .line == 11) | "\(.patch) \(.status)"' "$TMP/cov.json")" = "1 executed" ] ||
  fail "JSON: a.c:11 is not patch 1's executed line: $(cat "$TMP/cov.json")"
[ "$(jq -r '.summary.never_compiled' "$TMP/cov.json")" = 2 ] || fail "JSON: never_compiled != 2"
[ "$(jq -r '.summary.line' "$TMP/cov.json")" = "$(grep '^coverage: ' "$TMP/table")" ] ||
  fail "JSON summary line differs from the text"

# The first patch alone (--upto 1): the same line at its place in that tree.
expect_exit 0 "$KSERIES" coverage "${common[@]}" "${vmlinux[@]}" --upto 1
expect_grep "^  1 a.c:4 " "$TMP/out"
expect_grep "^coverage: [0-9]* of [0-9]* changed lines compiled (no run given)" "$TMP/out"

# A damaged cover file is refused, naming the file and line.
{ head -2 "$TMP/cover"; echo "0x1 0"; } >"$TMP/bad-cover"
expect_exit 2 "$KSERIES" coverage "${common[@]}" "${vmlinux[@]}" --cover "$TMP/bad-cover"
expect_grep "bad-cover:3: a count of 0" "$TMP/err"
# A file without DWARF is a usage error, not a crash.
printf 'not elf' >"$TMP/kernel/empty"
expect_exit 2 "$KSERIES" coverage "${common[@]}" --vmlinux "$TMP/kernel/empty"
expect_grep "not an ELF file\|no DWARF" "$TMP/err"
echo "ok"
