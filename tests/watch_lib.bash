# What the watch scenarios share (sourced after lib.bash and inbox.bash):
# the toy kernel tree and its configs, a local public-inbox with the toy
# series' v1 (and more, as each scenario adds), a --sendmail sink that keeps
# each mail it is given, and the watch command line.
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
skip_unless_installed jq python3 prlimit

# watch_setup: $repo (the toy kernel, $base its base), configs, cases, the
# inbox started, the sink; the watch array (--once, reading the whole
# archive: --since 2000-01-01).
watch_setup() {
  repo=$TMP/toy
  mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/configs/matrices"
  toy_kernel "$repo"
  seq 1 30 | sed 's/^/int a/; s/$/;/' >"$repo/a.c"
  git -C "$repo" add -A && git -C "$repo" commit -q -m base
  base=$(git -C "$repo" rev-parse HEAD)
  echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
  printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
  printf 'cell: toy demo setups=fsdax-dev\n' >"$TMP/configs/matrices/toy.matrix"
  toy_demo_case
  export KSERIES_KVM_DEVICE=$TMP/no-kvm
  inbox_start
  # The sink: one file per mail it is given, named by its Message-ID;
  # SINK_DELAY seconds before it takes it (a slow mail server).
  cat >"$TMP/sink" <<'SH'
#!/bin/sh
mail=$(cat)
sleep "${SINK_DELAY:-0}"
id=$(printf '%s\n' "$mail" | sed -n 's/^Message-ID: <\(.*\)>$/\1/Ip' | head -1)
n=$(ls "$SINK" | wc -l)
printf '%s\n' "$mail" >"$SINK/$n-$id"
SH
  chmod +x "$TMP/sink"
  export SINK=$TMP/sunk && mkdir -p "$SINK"
  watch=("$KSERIES" watch --workdir "$TMP/wd" --inbox "$INBOX_URL" --configs "$TMP/configs"
         --testcases "$TMP/cases" --tree "$repo" --matrix toy --accel tcg --outbox "$TMP/outbox"
         --sendmail "$TMP/sink" --since 2000-01-01)
}

# add_revision VERSION [IN-REPLY-TO] [SPEED]: the toy series' vVERSION in the
# inbox; its cover letter's message-id in $cover.
add_revision() {
  local version=$1 reply=${2:-} speed=${3:-fast}
  toy_revision "$repo" "$base" "$version" "$TMP/mails/v$version" "$reply" \
    "demo: rename a20|sed -i s/a20/A20/ a.c" "demo: set the speed|echo $speed >speed"
  cover=$(message_id "$TMP/mails/v$version/v$version-0000-cover-letter.patch")
  inbox_add "$TMP/mails/v$version"/*.patch
}

outbox_count() { find "$TMP/outbox" -maxdepth 1 -name '*.eml' 2>/dev/null | wc -l; }
sunk_count() { ls "$SINK" | wc -l; }
gate_runs() { find "$TMP/wd/runs" -maxdepth 1 -name '*-watch-gate*' 2>/dev/null | wc -l; }
states() { jq -r 'select(.phase != null) | "\(.revision) \(.phase) \(.message_id) \(.note)"' "$TMP"/wd/watch/*/*.json; }

# answer_to MESSAGE-ID: the outbox mail that replies to it.
answer_to() {
  grep -l "^In-Reply-To: <$1>" "$TMP"/outbox/*.eml 2>/dev/null | head -1
}

# post_intruder PREFIX: v1's mails as another poster's "v2" with the same
# change-id (fast where v1 is careful), not in v1's thread: PREFIX is the
# subject's "[PATCH ..." as v1 has it ("[PATCH " or "[PATCH v1 "). Sets
# $intruder (its cover letter's message-id) and delivers it.
post_intruder() {
  local prefix=$1 f
  mkdir -p "$TMP/mails/intruder"
  for f in "$TMP"/mails/v1/*.patch; do
    sed -e 's/^From: .*/From: Intruder <intruder@example.net>/' -e "s/\\${prefix}/[PATCH v2 /" \
        -e 's/^\(Message-I[dD]: <\)/\1intruder-/' -e 's/^\(In-Reply-To: <\)/\1intruder-/' \
        -e 's/^\(References: <\)/\1intruder-/' -e 's/^+careful$/+fast/' \
        "$f" >"$TMP/mails/intruder/$(basename "$f")"
  done
  intruder=$(message_id "$TMP/mails/intruder/v1-0000-cover-letter.patch")
  inbox_add "$TMP"/mails/intruder/*.patch
}
