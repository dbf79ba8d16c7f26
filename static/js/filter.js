// Narrow a long table to the rows that contain what the player types (their own name).
document.querySelectorAll("input[data-filter]").forEach((input) => {
  const rows = () => document.querySelectorAll(input.dataset.filter);
  input.addEventListener("input", () => {
    const wanted = input.value.trim().toLowerCase();
    rows().forEach((row) => {
      row.hidden = wanted !== "" && !row.textContent.toLowerCase().includes(wanted);
    });
  });
});
