// Narrow a long table to the rows that contain what the player types (their own name).
// Listens on the document, so a box swapped in by live.js works too, and narrows a live part
// again when live.js replaces it. data-filter-text: match only that part of each row.
function narrow(input) {
  const wanted = input.value.trim().toLowerCase();
  document.querySelectorAll(input.dataset.filter).forEach((row) => {
    const part = input.dataset.filterText ? row.querySelector(input.dataset.filterText) : row;
    row.hidden = wanted !== "" && !(part || row).textContent.toLowerCase().includes(wanted);
  });
}

document.addEventListener("input", (event) => {
  const input = event.target.closest("input[data-filter]");
  if (input) narrow(input);
});

document.addEventListener("live:updated", () => {
  document.querySelectorAll("input[data-filter]").forEach(narrow);
});
