# A poster who copies a series' change-id (issue 50, class 3), gated in an
# earlier poll than the series' next revision: the intruder's "v2" must not
# become the previous revision of the victim's v3 (whose answer would then
# open with a false "slower than the previous revision" warning against the
# intruder's fast "v2"). watch_intake.sh has all of them in one poll, where
# v3 may be gated before the intruder, and its intruder is titled
# "[PATCH v2 v1 0/2]" (its sed prefixes "v2" to format-patch's "v1"): with
# the check taken out, that intruder never became v3's previous revision,
# in one poll or gated a poll earlier. Here it is "[PATCH v2 0/2]", gated
# first. Without the author-and-thread check (41c9cd5), v3's answer
# named the intruder as its previous revision and warned "slower".
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/inbox.bash"
source "$(dirname "$0")/watch_lib.bash"
watch_setup
change_id=20261202-toy-series-0123456789ab

# The victim's v1 (careful: slow), then an intruder's "v2" with the victim's
# change-id (fast), not in its thread, from another address.
add_revision 1 "" careful
v1=$cover
post_intruder "[PATCH v1 "
expect_exit 0 "${watch[@]}" --once
expect_grep "^watch: 2 new revision(s), 2 answer(s)" "$TMP/out"
# The victim's v3, in reply to its v1 (careful again).
add_revision 3 "$v1" careful
v3=$cover
expect_exit 0 "${watch[@]}" --once
expect_grep "^watch: 1 new revision(s), 1 answer(s)" "$TMP/out"
# The intruder is nobody's previous revision; v3's is v1, and no warning.
mail=$(answer_to "$v3")
[ -n "$mail" ] || fail "v3 not answered: $(states)"
expect_grep "reference: the previous revision, change-id $change_id v1 <$v1>" "$mail"
grep -q "WARNING" "$mail" && fail "v3's answer warns: $(cat "$mail")"
jq -r "select(.message_id == \"$v3\") | .note" "$TMP"/wd/watch/*/*.json >"$TMP/v3"
expect_grep "<$intruder> by intruder@example.net has this series' identity but another author and is not in this thread" "$TMP/v3"
mail=$(answer_to "$intruder")
expect_grep "no earlier revision seen" "$mail"
echo PASS
