// The player's page without the venue's Wi-Fi (issue 25). "Check my result" is worked out on
// the phone (report-rules.js, the engine's rule over the event's settings in #offline-settings);
// "Save this result" keeps the report on the phone (report-queue.js) and sends it to the API
// with its own Idempotency-Key: at once, on page load, when the network comes back, when the
// page is shown again, every 30 s while anything waits, from "Send now", and by Background Sync
// where the browser has it. #sync-status says where the queue stands (data-sync-state,
// data-pending, aria-live); #report-queue shows what waits and what the server refused.
// The playoff match's form (data-offline-report="match") goes through the same queue to the
// match's API route. Without scripts or IndexedDB the page's forms work as before, through the
// server.
(function () {
  const configElement = document.getElementById("offline-settings");
  const status = document.getElementById("sync-status");
  const panel = document.getElementById("report-queue");
  if (!configElement || !status || !panel || !window.indexedDB || !window.idb) return;
  const config = JSON.parse(configElement.textContent);
  const queue = window.ReportQueue;
  const rules = window.PegboardRules;
  const EVERY_MS = 30 * 1000;
  const KEEP_DONE_MS = 15 * 60 * 1000; // a received report's words stay this long
  let confirmingClear = false;

  if ("serviceWorker" in navigator) {
    // The first visit came from the network: once the worker takes the page, the page is
    // asked again through it, so it is on the phone for a reload without the network.
    if (!navigator.serviceWorker.controller) {
      navigator.serviceWorker.addEventListener("controllerchange", () => {
        fetch(location.pathname, { credentials: "same-origin" }).catch(() => null);
      }, { once: true });
    }
    navigator.serviceWorker.register(config.worker_url, { scope: config.scope }).catch(() => null);
  }

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    const bytes = window.crypto.getRandomValues(new Uint8Array(16));
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  function csrfToken() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
    return cookie ? cookie.slice("csrftoken=".length) : "";
  }

  function element(tag, attributes = {}, text = "") {
    const node = document.createElement(tag);
    Object.entries(attributes).forEach(([name, value]) => node.setAttribute(name, value));
    if (text) node.textContent = text;
    return node;
  }

  function figures(record) {
    const how = record.result === "won" ? "I won" : "I lost";
    const which = record.kind === "match" ? "Playoff game" : "Game";
    const game = record.game ? `${which} ${record.game}: ` : "";
    return `${game}${how} by ${record.margin} (${rules.lineWords(record.line)})`;
  }

  // "Check my result": the engine's rule on the phone, its sentence next to the box to fix.
  function check(form) {
    form.querySelectorAll(".error").forEach((node) => node.remove());
    const chosen = form.querySelector("input[name=result]:checked");
    const typed = form.elements.margin.value.trim();
    const problems = [];
    if (!chosen) problems.push([form.querySelector(".choice"), config.messages.result]);
    let preview = null;
    if (typed === "") problems.push([form.elements.margin, config.messages.margin]);
    else if (!/^[0-9]+$/.test(typed)) problems.push([form.elements.margin, config.messages.whole]);
    else if (chosen) {
      preview = rules.cardLinePreview(chosen.value === "won", Number(typed), config.settings);
      if (!preview.ok) problems.push([form.elements.margin, preview.message]);
    }
    problems.forEach(([near, message]) => {
      near.insertAdjacentElement("afterend", element("p", { class: "error", role: "alert" }, message));
    });
    if (problems.length) return;
    showPreview(form, { result: chosen.value, margin: Number(typed), preview });
  }

  function showPreview(form, { result, margin, preview }) {
    form.dataset.dirty = "1"; // live.js leaves the part alone while this waits
    form.hidden = true;
    const box = element("div", { class: "preview", role: "status", "aria-live": "polite" });
    box.append(element("p", { class: "big" }, preview.words));
    const line = element("p", {}, "Your card line: ");
    line.append(element("strong", {}, rules.lineWords(preview.line)), ".");
    box.append(line);
    box.append(element("p", { class: "muted" },
      "Worked out on this phone. The server checks it again when your report arrives."));
    const save = element("button", { type: "button", class: "button huge" }, "Save this result");
    const change = element("button", { type: "button", class: "button secondary" }, "Change it");
    box.append(save, element("p"), change);
    form.insertAdjacentElement("afterend", box);
    save.focus();
    change.addEventListener("click", () => {
      box.remove();
      form.hidden = false;
      form.elements.margin.focus();
    });
    save.addEventListener("click", async () => {
      save.disabled = true;
      const keyInput = form.elements.idempotency_key;
      const kind = kindOf(form);
      await queue.put({
        key: (keyInput && keyInput.value) || newKey(),
        kind,
        token: config.token,
        url: kind === "match" ? config.match_url : config.report_url,
        state_url: config.report_url, // GET: the player's state, the match's words with it
        game: Number(form.elements.game && form.elements.game.value) || null,
        result,
        margin,
        line: preview.line,
        csrf: csrfToken(),
        state: "saved",
        words: "",
        made_at: Date.now(),
        tries: 0,
      });
      box.remove();
      form.reset();
      if (keyInput) keyInput.value = newKey(); // another report is another key
      delete form.dataset.dirty;
      form.hidden = false;
      const details = form.closest("details");
      if (details) details.open = false;
      askForBackgroundSync();
      await render();
      send();
    });
  }

  // "match" for the playoff match's form, "report" for the qualifying game's.
  function kindOf(form) {
    return form.dataset.offlineReport === "match" ? "match" : "report";
  }

  function formFor(record) {
    const kind = record.kind || "report";
    return [...document.querySelectorAll("form[data-offline-report]")]
      .find((form) => kindOf(form) === kind) || null;
  }

  function askForBackgroundSync() {
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
    navigator.serviceWorker.ready
      .then((registration) => registration.sync && registration.sync.register("pegboard-reports"))
      .catch(() => null);
  }

  // The queue's words, once for #sync-status and once with buttons in #report-queue.
  function summary(records) {
    const waiting = records.filter(queue.pending);
    const latest = records.filter((record) => !queue.pending(record)).pop();
    const n = waiting.length;
    if (waiting.some((record) => record.state === "sending")) {
      return ["sending", n === 1 ? "Sending your report…" : `Sending your ${n} reports…`];
    }
    if (n) {
      return ["queued", n === 1
        ? "Saved on this phone, not sent yet. It goes to the server by itself when the " +
          "connection is back."
        : `${n} reports saved on this phone, not sent yet. They go to the server by ` +
          "themselves when the connection is back."];
    }
    if (!latest) return ["idle", ""];
    if (latest.state === "refused") return ["refused", `Not accepted: ${latest.words}`];
    if (latest.state === "conflict") {
      return ["conflict", "This phone and the card on the server differ: please see the " +
        `director. ${latest.words}`];
    }
    return ["received", `Received by the server. ${latest.words}`];
  }

  async function render() {
    const records = await queue.forToken(config.token);
    const waiting = records.filter(queue.pending);
    const [state, words] = summary(records);
    status.dataset.syncState = state;
    status.dataset.pending = String(waiting.length);
    if (status.textContent !== words) status.textContent = words;
    document.querySelectorAll("form[data-offline-report]").forEach((form) => {
      const section = form.closest("details") || form;
      section.hidden = waiting.length > 0 && !form.dataset.dirty;
    });
    drawPanel(records, waiting);
  }

  function drawPanel(records, waiting) {
    panel.replaceChildren();
    if (navigator.onLine === false) {
      panel.append(element("p", { class: "notice" }, "No connection. This page shows what the " +
        "server said when this phone last reached it; reports are kept on the phone."));
    }
    const latest = records.filter((record) => !queue.pending(record)).pop();
    if (waiting.length) {
      const list = element("ul", { class: "queued-reports" });
      waiting.forEach((record) => list.append(element("li", {}, figures(record))));
      panel.append(list);
      const last = waiting[waiting.length - 1];
      if (last.state === "saved") {
        const change = element("button", { type: "button", class: "button secondary" },
          "Change this report");
        change.addEventListener("click", () => fixFigures(last));
        panel.append(change);
      }
      const sendNow = element("button", { type: "button", class: "button huge" }, "Send now");
      sendNow.addEventListener("click", () => send(true));
      panel.append(sendNow);
    }
    if (latest && latest.state === "refused" && !waiting.length) {
      panel.append(element("p", {}, `Your figures, kept on this phone: ${figures(latest)}.`));
      if (formFor(latest)) {
        const fix = element("button", { type: "button", class: "button huge" },
          "Fix these figures");
        fix.addEventListener("click", () => fixFigures(latest));
        panel.append(fix);
      } else {
        panel.append(dismiss(latest, "I have told the director: remove it from this phone"));
      }
    }
    if (latest && latest.state === "conflict" && !waiting.length) {
      panel.append(element("p", {}, `This phone holds: ${figures(latest)}.`));
      panel.append(dismiss(latest, "I have seen the director: remove it from this phone"));
    }
    if (waiting.length || (latest && ["refused", "conflict"].includes(latest.state))) {
      drawClear(waiting.length);
    }
  }

  function dismiss(record, words) {
    const button = element("button", { type: "button", class: "button secondary" }, words);
    button.addEventListener("click", async () => {
      await queue.remove(record.key);
      render();
    });
    return button;
  }

  // Clearing the phone's reports: refused while any waits, unless the player says so twice.
  function drawClear(waiting) {
    const box = element("div", { class: "queue-clear" });
    if (confirmingClear && waiting) {
      box.append(element("p", { class: "error", role: "alert" },
        `${waiting === 1 ? "One report has" : `${waiting} reports have`} not reached the ` +
        `server yet. If you clear this phone now, ${waiting === 1 ? "it is" : "they are"} ` +
        `lost: report ${waiting === 1 ? "it" : "them"} on paper instead.`));
      const yes = element("button", { type: "button", class: "button danger" },
        `Yes, delete ${waiting === 1 ? "the unsent report" : `${waiting} unsent reports`}`);
      const no = element("button", { type: "button", class: "button secondary" },
        waiting === 1 ? "Keep it" : "Keep them");
      yes.addEventListener("click", () => clearAll());
      no.addEventListener("click", () => { confirmingClear = false; render(); });
      box.append(yes, no);
    } else {
      const clear = element("button", { type: "button", class: "button secondary" },
        "Clear this phone's saved reports");
      clear.addEventListener("click", () => {
        if (waiting) {
          confirmingClear = true;
          render();
        } else {
          clearAll();
        }
      });
      box.append(clear);
    }
    panel.append(box);
  }

  async function clearAll() {
    confirmingClear = false;
    await queue.clearToken(config.token);
    render();
  }

  async function fixFigures(record) {
    await queue.remove(record.key);
    await render();
    // Found after the awaits: the live part may have been drawn again meanwhile.
    const form = formFor(record);
    if (!form) return;
    const details = form.closest("details");
    if (details) details.open = true;
    const radio = form.querySelector(`input[name=result][value=${record.result}]`);
    if (radio) radio.checked = true;
    form.elements.margin.value = String(record.margin);
    form.dataset.dirty = "1";
    form.elements.margin.focus();
  }

  // The "online" event often comes a moment before the network carries anything: a send that
  // finds no network while the phone says it is online is tried again soon (2 s, 4 s, ... up
  // to the 30 s round).
  let sending = false;
  let soon = null;
  let backoff = 2000;
  async function send(asked = false) {
    if (sending || (!asked && navigator.onLine === false)) return;
    sending = true;
    clearTimeout(soon);
    try {
      const before = await queue.forToken(config.token);
      if (!before.some(queue.pending)) return render(); // the worker may have sent them
      const left = await queue.sendAll(config.token, render);
      // The page's part may already say the game is verified (drawn while this send was still
      // waiting for its answer): a refresh that finds nothing new draws nothing, so look now.
      await followPage();
      // The page's own part follows what the server now holds.
      document.dispatchEvent(new CustomEvent("live:refresh"));
      if (left && navigator.onLine !== false) {
        soon = setTimeout(() => send(), backoff);
        backoff = Math.min(backoff * 2, EVERY_MS);
      } else {
        backoff = 2000;
      }
    } finally {
      sending = false;
    }
  }

  // The server said so on the page (live part): a received report's game is now verified.
  async function followPage() {
    const section = document.querySelector(".current-game[data-game]");
    const verified = section && section.querySelector(".state-verified");
    const match = matchOnPage();
    for (const record of await queue.forToken(config.token)) {
      if (record.state !== "received") continue;
      if (record.kind === "match" && match) {
        const said = queue.matchOutcome(match, record);
        if (said.state !== "received") await queue.advance({ ...record, ...said });
      } else if (record.kind !== "match" && verified && record.game === Number(section.dataset.game)) {
        await queue.advance({ ...record, state: "verified", words: verified.textContent.trim() });
      }
    }
    render();
  }

  // The match as the page's live part shows it, in the API's terms (queue.matchOutcome).
  function matchOnPage() {
    const section = document.querySelector(".playoff-match[data-match-state]");
    if (!section) return null;
    const words = section.querySelector(".state");
    return {
      state: section.dataset.matchState,
      game: section.dataset.matchGame ? Number(section.dataset.matchGame) : null,
      words: words ? words.textContent.trim() : "",
      settled: { changed: Boolean(section.querySelector(".settled")) },
    };
  }

  // On opening: a received report's words go after a while; a send cut off when the page
  // closed waits again (sent again with its key, it is stored once).
  async function forgetOld() {
    for (const record of await queue.forToken(config.token)) {
      const done = ["received", "verified"].includes(record.state);
      if (done && Date.now() - (record.done_at || 0) > KEEP_DONE_MS) await queue.remove(record.key);
      else if (record.state === "sending") await queue.advance({ ...record, state: "saved" });
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-offline-report]");
    if (!form) return;
    event.preventDefault();
    check(form);
  });
  document.addEventListener("live:updated", followPage);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data !== "reports-changed") return;
      render();
      document.dispatchEvent(new CustomEvent("live:refresh"));
    });
  }
  window.addEventListener("online", () => render().then(() => send()));
  window.addEventListener("offline", () => render());
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) send();
  });
  setInterval(() => send(), EVERY_MS);
  forgetOld().then(render).then(() => send());
})();
