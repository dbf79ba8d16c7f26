// Live parts of pages: the element with data-live-url is fetched again every 3.5 to 4 s (its
// data-live-seconds, or what the server's last answer said in X-Poll-Seconds: a player's page
// in a large field is paced so the event's phones stay within what the server can answer) with
// If-None-Match; the server answers 304 while nothing changed (one cheap query), or the new
// part, which replaces the old one. Polling pauses while the page is hidden (a phone asleep)
// and resumes at once when it is shown again; it waits while someone is filling in a form in
// the part, so nothing typed is ever lost.
(function () {
  const part = document.querySelector("[data-live-url]");
  if (!part) return;
  const url = part.dataset.liveUrl;
  let every = (Number(part.dataset.liveSeconds) || 3.5) * 1000;
  // A page that says which version of its part it holds (a player's page): the first poll
  // is then a 304 when nothing changed, not the same part again.
  let etag = part.dataset.liveVersion ? `"${part.dataset.liveVersion}"` : null;
  let timer = null;
  let busy = false;

  function editing() {
    const active = document.activeElement;
    if (active && part.contains(active) && ["INPUT", "TEXTAREA", "SELECT"].includes(active.tagName)) {
      return true;
    }
    return [...part.querySelectorAll("form")].some((form) => form.dataset.dirty === "1") ||
      [...part.querySelectorAll("details[open]")].length > 0;
  }

  part.addEventListener("input", (event) => {
    const form = event.target.closest("form");
    if (form) form.dataset.dirty = "1";
  });

  async function poll() {
    if (busy || document.hidden || editing()) return schedule();
    busy = true;
    try {
      const headers = { "X-Requested-With": "live" };
      if (etag) headers["If-None-Match"] = etag;
      const response = await fetch(url, { headers, cache: "no-store", credentials: "same-origin" });
      const paced = Number(response.headers.get("X-Poll-Seconds"));
      if (paced >= 1) every = paced * 1000;
      if (response.status === 200) {
        etag = response.headers.get("ETag");
        const html = await response.text();
        if (!editing()) {
          part.innerHTML = html;
          part.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
        }
      } else if (response.status === 304) {
        etag = response.headers.get("ETag") || etag;
      }
    } catch (error) {
      // Offline for a moment (venue Wi-Fi): try again at the next turn.
    } finally {
      busy = false;
      schedule();
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(poll, every + Math.random() * every / 7); // 3.5 s: up to 0.5 s later
  }

  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) poll();
  });
  // The phone's queue (report-offline.js) asks for the part at once after a report went in.
  document.addEventListener("live:refresh", () => poll());
  schedule();
})();
