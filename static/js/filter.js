// Narrow a long table to the rows that contain what the player types (their own name).
// Listens on the document, so a box swapped in by live.js works too.
document.addEventListener("input", (event) => {
  const input = event.target.closest("input[data-filter]");
  if (!input) return;
  const wanted = input.value.trim().toLowerCase();
  document.querySelectorAll(input.dataset.filter).forEach((row) => {
    row.hidden = wanted !== "" && !row.textContent.toLowerCase().includes(wanted);
  });
});
