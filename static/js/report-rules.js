// "What will this put on my card", worked out on the phone when the server cannot be reached.
// The same rule as the engine (scoring/games.py: card_line_for, describe_card_line), word for
// word, over the event's settings carried in the page (selectors/events.event_scoring_settings);
// tests/browser/test_report_rules.py compares the two for every margin. The engine checks the
// report again when it arrives: this is a preview, never the record.
(function (root) {
  function points(n) {
    return n === 1 ? `${n} game point` : `${n} game points`;
  }

  function winKind(spread, settings) {
    const double = settings.double_skunk_margin;
    if (double !== null && double !== undefined && spread >= double) return "double skunk";
    return spread >= settings.skunk_margin ? "skunk" : "plain win";
  }

  // {ok: true, line: {game_points, plus, minus}, words} or {ok: false, message} (the engine's
  // sentence for an impossible margin).
  function cardLinePreview(won, spread, settings) {
    if (!Number.isInteger(spread) || spread < 1 || spread > settings.target) {
      return {
        ok: false,
        message:
          `A spread is 1 to ${settings.target} (the target minus the loser's score), ` +
          `not ${spread}.`,
      };
    }
    const kind = winKind(spread, settings);
    const gamePoints = !won
      ? 0
      : { "double skunk": settings.double_skunk_points, skunk: settings.skunk_points,
          "plain win": settings.win_points }[kind];
    const loserScore = settings.target - spread;
    let words;
    if (won) {
      words = `A win by ${spread}` + (kind === "plain win" ? "" : ` is a ${kind}`) +
        `: ${points(gamePoints)}, plus ${spread} spread (the loser finished on ${loserScore}).`;
    } else {
      words = `A loss by ${spread}` + (kind === "plain win" ? "" : ` is a ${kind} against you`) +
        `: ${points(0)}, minus ${spread} spread (you finished on ${loserScore}).`;
    }
    const line = won
      ? { game_points: gamePoints, plus: spread, minus: 0 }
      : { game_points: 0, plus: 0, minus: spread };
    return { ok: true, line, words };
  }

  // The words of a card line as the page shows it (templatetags/lines.py line_words).
  function lineWords(line) {
    if (line.plus) return `${points(line.game_points)}, plus ${line.plus}`;
    if (line.minus) return `${points(line.game_points)}, minus ${line.minus}`;
    return points(line.game_points);
  }

  root.PegboardRules = { cardLinePreview, lineWords, winKind };
})(typeof self !== "undefined" ? self : this);
