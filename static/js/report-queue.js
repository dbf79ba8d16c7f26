// The phone's queue of reports (issue 25), in IndexedDB through idb (static/vendor/idb, pinned
// in package.json), used by the player's page (report-offline.js) and by the service worker on a
// Background Sync. One record per report, found by its private link (token), so two players'
// links opened on one phone keep their reports apart.
//
// A record: {key, kind, token, url, state_url, game, result, margin, line, csrf, state, words,
// made_at, tries}. kind is "report" (a qualifying game, POST /api/v1/report/<token>/) or "match"
// (a playoff match's game, .../match/, whose answer is the match: the player's words are then
// read from state_url, GET /api/v1/report/<token>/). key is the report's own Idempotency-Key:
// sent twice (a lost answer, a resend from another tab or from the worker), the server stores
// it once. States, in the player's words:
// - saved: saved on this phone, not sent yet
// - sending: being sent now
// - received: the server has it, waiting for the opponent (or the cards disagree)
// - verified: the server says both cards agree (never shown before the server says so)
// - refused: the server's sentence; the figures are kept so the player can fix them
// - conflict: what the phone holds and what the card on the server says differ: see the director
(function (root) {
  const STORE = "reports";
  const STALE_SENDING_MS = 60 * 1000; // a send cut off (page closed): tried again after this
  // A send the network never answers (Wi-Fi that drops packets, a server that stopped) is
  // given up after this: the report goes back to "saved on this phone" and is tried again
  // with its key, instead of showing "Sending" for as long as the connection hangs.
  const SEND_LIMIT_MS = 15 * 1000;
  const CONFLICT_CODES = ["already_verified", "game_changed", "decided"];
  let database = null;
  const running = new Map(); // token -> the send in progress in this page or worker

  function open() {
    if (!database) {
      database = root.idb.openDB("pegboard-reports", 1, {
        upgrade(db) {
          const store = db.createObjectStore(STORE, { keyPath: "key" });
          store.createIndex("token", "token");
        },
      });
    }
    return database;
  }

  async function forToken(token) {
    const db = await open();
    const records = token === null
      ? await db.getAll(STORE)
      : await db.getAllFromIndex(STORE, "token", token);
    return records.sort((a, b) => a.made_at - b.made_at);
  }

  async function put(record) {
    const db = await open();
    await db.put(STORE, record);
    return record;
  }

  // How far a report has come: an answer or the page's own words never take a record back
  // (a resend's late answer is the server's first answer again, "waiting", while the page may
  // already have seen the game verified; a send that found no network is not "saved on this
  // phone" again once another sender had it received).
  const RANK = { saved: 0, sending: 0, received: 1, verified: 2, conflict: 3, refused: 3 };

  // Put the record unless the stored one has come further (another sender: the page, another
  // tab, the worker's Background Sync); read and written in one transaction. Resolves to what
  // the store then holds.
  async function advance(record) {
    const db = await open();
    const tx = db.transaction(STORE, "readwrite");
    const now = await tx.store.get(record.key);
    const kept = now && RANK[record.state] < RANK[now.state] ? now : record;
    if (kept === record) await tx.store.put(record);
    await tx.done;
    return kept;
  }

  async function remove(key) {
    const db = await open();
    await db.delete(STORE, key);
  }

  async function clearToken(token) {
    for (const record of await forToken(token)) await remove(record.key);
  }

  function waiting(record) {
    if (record.state === "saved") return true;
    return record.state === "sending" && Date.now() - (record.sent_at || 0) > STALE_SENDING_MS;
  }

  function pending(record) {
    return record.state === "saved" || record.state === "sending";
  }

  function sameLine(a, b) {
    return Boolean(a && b) && a.game_points === b.game_points && a.plus === b.plus &&
      a.minus === b.minus;
  }

  // The answer to a saved report, the small body ({state, words, verified, line}) or the
  // player's page as data ({current: {state, words, verified, settled}}).
  function outcome(body, record) {
    const current = body.current || {};
    const state = body.state || current.state;
    const words = body.words || current.words || "";
    const settledChanged = state === "settled" && current.settled && current.settled.changed;
    const verified = body.verified === true || state === "verified" || state === "settled";
    const onCard = body.line || current.verified;
    if (settledChanged || (verified && onCard && !sameLine(onCard, record.line))) {
      return { state: "conflict", words };
    }
    return { state: verified ? "verified" : "received", words };
  }

  // A match report's answer is the match; the player's words for it come from their state.
  // Between games the match shows what became of the last one: verified (both cards agree, or
  // the match decided by them), or settled by a director or the judges.
  function matchOutcome(match, record) {
    const state = match.state;
    const words = match.words || "";
    const moved = match.game === null || match.game !== record.game;
    if (moved && state === "settled" && match.settled && match.settled.changed) {
      return { state: "conflict", words };
    }
    if (moved && ["verified", "decided", "settled"].includes(state)) {
      return { state: "verified", words };
    }
    return { state: "received", words };
  }

  async function matchAnswer(record) {
    try {
      const { response, body } = await fetchWithin(record.state_url, {
        credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" },
      });
      if (response.ok && body.match) return matchOutcome(body.match, record);
    } catch (error) {
      // Saved on the server; the words follow with the page.
    }
    return { state: "received", words: "" };
  }

  function firstMessage(body, fallback) {
    const errors = body && body.errors;
    if (errors && errors.length) return errors.map((error) => error.message).join(" ");
    return (body && body.detail) || fallback;
  }

  // The answer and its body within SEND_LIMIT_MS, else the fetch is aborted (an error).
  async function fetchWithin(url, options) {
    const stop = new AbortController();
    const limit = setTimeout(() => stop.abort(), SEND_LIMIT_MS);
    try {
      const response = await fetch(url, { ...options, signal: stop.signal });
      const text = await response.text();
      return { response, body: parseJson(text) };
    } finally {
      clearTimeout(limit);
    }
  }

  function parseJson(text) {
    try {
      return JSON.parse(text);
    } catch (error) {
      return {};
    }
  }

  function fieldsOf(record) {
    const fields = { result: record.result, margin: record.margin };
    if (record.game) fields.game = record.game; // the game the player was looking at
    return fields;
  }

  async function sendOne(record, changed) {
    const tried = { ...record, tries: (record.tries || 0) + 1 };
    const sending = { ...tried, state: "sending", sent_at: Date.now() };
    if (await advance(sending) !== sending) return null; // another sender had it answered
    changed();
    const headers = { "Content-Type": "application/json", "Idempotency-Key": record.key };
    if (record.csrf) headers["X-CSRFToken"] = record.csrf; // a signed-in player's session
    const sent = JSON.stringify(fieldsOf(record));
    let response, body;
    try {
      ({ response, body } = await fetchWithin(record.url, {
        method: "POST", headers, credentials: "same-origin", cache: "no-store", body: sent,
      }));
    } catch (error) {
      // No network, or no answer in time: kept for later (sent again, it is stored once).
      return advance({ ...tried, state: "saved", words: "" });
    }
    if (response.status === 200 || response.status === 201) {
      const said = record.kind === "match" ? await matchAnswer(record) : outcome(body, record);
      return advance({ ...tried, ...said, done_at: Date.now() });
    }
    // 409: the key was used with other figures; already_verified: the table's card was settled
    // without this report; game_changed: the next game is in play (the report's game was
    // settled without it); decided: the match was. Either way the phone and the server may
    // differ: see the director (the figures are not put in the next game's form).
    const codes = (body.errors || []).map((error) => error.code);
    if (response.status === 409 || codes.some((code) => CONFLICT_CODES.includes(code))) {
      const words = firstMessage(body, "The server holds another report under this key.");
      return advance({ ...tried, state: "conflict", words, done_at: Date.now() });
    }
    if (response.status === 429 || response.status >= 500) {
      return advance({ ...tried, state: "saved", words: "" }); // busy or down: tried later
    }
    const words = firstMessage(body, `The server refused this report (${response.status}).`);
    return advance({ ...tried, state: "refused", words, done_at: Date.now() });
  }

  // Send every report that waits (of one link, or of all with token null), oldest first, one
  // at a time; resolves to how many still wait. ``changed()`` is called as each state changes.
  function sendAll(token, changed = () => {}) {
    if (running.has(token)) return running.get(token);
    const run = (async () => {
      try {
        for (const record of await forToken(token)) {
          if (waiting(record)) {
            await sendOne(record, changed);
            changed();
          }
        }
        return (await forToken(token)).filter(pending).length;
      } finally {
        running.delete(token);
      }
    })();
    running.set(token, run);
    return run;
  }

  root.ReportQueue = {
    forToken, put, advance, remove, clearToken, sendAll, pending, outcome, matchOutcome,
  };
})(typeof self !== "undefined" ? self : this);
