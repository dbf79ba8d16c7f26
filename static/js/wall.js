// The projector wall (templates/tournaments/wall/): the whole field in pages that turn by
// themselves, with nothing to touch.
//
// Pages. Each list of the live part (pairings by name, standings) is cut into pages that fill
// the screen: as many columns as data-wall-col-em allows, as many rows as fit in the height.
// The lists' pages alternate: pairings 1, standings 1, pairings 2, standings 2... The bracket
// pages through the first round it shows, with the matches those feed in the later rounds.
//
// Time. Each page stays data-wall-seconds, less when the field needs more pages, so that every
// row comes round within data-wall-cycle seconds whatever the field:
//     seconds per page = min(preferred, cycle / pages), so pages × seconds per page <= cycle.
// Type is as large as the field allows: the largest size at which the preferred seconds still
// fit the cycle, and never below 32 px (the stylesheet's floor).
//
// Live. When live.js swaps in new data ("live:updated") the pages are worked out again and the
// wall stays on the page it was showing (the same list and page number if it still exists, else
// the same place in the cycle), keeping its time: results arriving every few seconds in a busy
// room never hold the pages still, and nothing jumps back to page 1.
//
// The plan is written on the wall element for tests: data-wall-pages, data-wall-page-ms and
// data-wall-page (the page shown, from 1).
(function () {
  const wall = document.querySelector("[data-wall]");
  if (!wall) return;
  const part = wall.querySelector("[data-live-url]") || wall;
  const preferred = (Number(wall.dataset.wallSeconds) || 15) * 1000;
  const cycle = (Number(wall.dataset.wallCycle) || 120) * 1000;
  // Type sizes to try, in hundredths of the screen's height, largest first (wall.css turns
  // them into a font size of at least 32 px; 0 is that floor).
  const SIZES = [5, 4.4, 3.8, 3.4, 0];
  // A bracket column narrower than this many letters cuts names short.
  const BRACKET_MIN_EM = 12;
  let pages = [];
  let index = 0;
  let pageMs = preferred;
  let dueAt = 0;
  let timer = null;

  function only(section) {
    part.querySelectorAll(".wall-section").forEach((s) => {
      s.hidden = s !== section;
    });
  }

  function px(value) {
    return parseFloat(value) || 0;
  }

  // A list's pages: columns of rows, filled down then across.
  function listPages(section) {
    const box = section.querySelector(".wall-rows");
    const rows = [...box.children];
    if (!rows.length) return [];
    rows.forEach((row, i) => {
      row.hidden = i > 0;
    });
    const style = getComputedStyle(box);
    const gap = px(style.columnGap);
    const width = Number(section.dataset.wallColEm) * px(style.fontSize);
    const cols = Math.max(1, Math.floor((box.clientWidth + gap) / (width + gap)));
    const perCol = Math.max(1, Math.floor(box.clientHeight / rows[0].getBoundingClientRect().height));
    const perPage = cols * perCol;
    const count = Math.ceil(rows.length / perPage);
    const name = section.dataset.wallList;
    return Array.from({ length: count }, (_, k) => ({
      key: `${name}:${k}`,
      section,
      show: () => showList(section, rows, k * perPage, Math.min(rows.length, (k + 1) * perPage), cols, perCol, k, count),
    }));
  }

  function showList(section, rows, start, end, cols, perCol, k, count) {
    const box = section.querySelector(".wall-rows");
    rows.forEach((row, i) => {
      row.hidden = i < start || i >= end;
    });
    const used = Math.ceil((end - start) / perCol);
    box.style.setProperty("--cols", cols);
    box.style.setProperty("--rows", Math.ceil((end - start) / used));
    const labels = section.querySelector(".wall-labels");
    if (labels) {
      const template = labels.firstElementChild;
      while (labels.children.length < used) labels.appendChild(template.cloneNode(true));
      while (labels.children.length > used) labels.lastElementChild.remove();
      labels.style.setProperty("--cols", cols);
    }
    const where = section.querySelector("[data-wall-page]");
    if (where) {
      const shown = rows.slice(start, end).filter((row) => !row.classList.contains("wall-cut"));
      let range = "";
      if (section.dataset.wallList === "pairings" && shown.length) {
        const initial = (row) => row.querySelector(".who").textContent.trim().charAt(0).toUpperCase();
        range = `names ${initial(shown[0])}–${initial(shown[shown.length - 1])}`;
      } else if (shown.length) {
        range = `places ${shown[0].dataset.rank}–${shown[shown.length - 1].dataset.rank}`;
      }
      where.textContent = count > 1 ? `(${range}, page ${k + 1} of ${count})` : "";
    }
  }

  // The bracket's pages: a power of two of the first round's matches a page, with the matches
  // they feed in each later round (cell s of a round is fed by cells 2s and 2s + 1 before it).
  function bracketPages(section) {
    const rounds = [...section.querySelectorAll(".wall-round")].map((round) => [
      ...round.querySelectorAll(".wall-match-cell"),
    ]);
    if (!rounds.length || !rounds[0].length) return [];
    rounds.forEach((cells) =>
      cells.forEach((cell, i) => {
        cell.hidden = i > 0;
      }),
    );
    // Too narrow for a name at this size: try the next size down.
    const round = section.querySelector(".wall-round");
    const em = px(getComputedStyle(round).fontSize);
    if (round.clientWidth < BRACKET_MIN_EM * em && wall.style.getPropertyValue("--wall-vh") !== "0") return null;
    const cell = rounds[0][0];
    const style = getComputedStyle(cell);
    const height = cell.firstElementChild.getBoundingClientRect().height + px(style.paddingTop) + px(style.paddingBottom);
    const fit = Math.max(1, Math.floor(cell.parentElement.clientHeight / height));
    let per = 1;
    while (per * 2 <= fit) per *= 2;
    const count = Math.ceil(rounds[0].length / per);
    return Array.from({ length: count }, (_, k) => ({
      key: `bracket:${k}`,
      section,
      show: () => {
        rounds.forEach((cells, i) => {
          const span = per / 2 ** i;
          const low = Math.floor(k * span);
          const high = Math.max(low + 1, Math.floor((k + 1) * span));
          cells.forEach((c, s) => {
            c.hidden = s < low || s >= high;
          });
        });
        const where = section.querySelector("[data-wall-page]");
        if (where) where.textContent = count > 1 ? `(page ${k + 1} of ${count})` : "";
      },
    }));
  }

  function paginate() {
    const groups = [...part.querySelectorAll(".wall-section")].map((section) => {
      only(section);
      if (section.dataset.wallList) return listPages(section);
      if (section.hasAttribute("data-wall-bracket")) return bracketPages(section);
      return [{ key: "one", section, show: () => {} }];
    });
    if (groups.includes(null)) return null;
    const all = [];
    const longest = Math.max(0, ...groups.map((g) => g.length));
    for (let i = 0; i < longest; i++) groups.forEach((g) => i < g.length && all.push(g[i]));
    return all;
  }

  function plan() {
    for (const size of SIZES) {
      wall.style.setProperty("--wall-vh", size);
      pages = paginate();
      if (pages && pages.length * preferred <= cycle) break;
    }
    pageMs = pages.length > 1 ? Math.min(preferred, Math.floor(cycle / pages.length)) : preferred;
    wall.dataset.wallPages = pages.length;
    wall.dataset.wallPageMs = pageMs;
  }

  function show() {
    const page = pages[index];
    if (!page) return;
    only(page.section);
    page.show();
    wall.dataset.wallPage = index + 1;
  }

  function schedule(ms) {
    clearTimeout(timer);
    if (pages.length < 2) return;
    dueAt = Date.now() + ms;
    timer = setTimeout(turn, ms);
  }

  function turn() {
    index = (index + 1) % pages.length;
    show();
    schedule(pageMs);
  }

  function refresh() {
    const key = pages[index] && pages[index].key;
    plan();
    const same = pages.findIndex((page) => page.key === key);
    index = same >= 0 ? same : index < pages.length ? index : 0;
    show();
    const left = dueAt ? Math.min(Math.max(dueAt - Date.now(), 0), pageMs) : pageMs;
    schedule(left);
  }

  part.addEventListener("live:updated", refresh);
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(refresh, 200);
  });
  refresh();
})();
