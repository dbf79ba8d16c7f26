// A big on-screen keypad for the margin, for players who find the phone's keyboard fiddly.
// Set up on load, and again whenever a live part of the page is replaced (live.js).
function setUpKeypads(root) {
  root.querySelectorAll(".keypad").forEach((pad) => {
    const input = document.getElementById(pad.dataset.target);
    if (!input || pad.dataset.ready) return;
    pad.dataset.ready = "1";
    pad.hidden = false;
    pad.addEventListener("click", (event) => {
      const key = event.target.closest("button")?.dataset.key;
      if (!key) return;
      if (key === "clear") input.value = "";
      else if (key === "back") input.value = input.value.slice(0, -1);
      else if (input.value.length < 3) input.value += key;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  });
}
setUpKeypads(document);
document.addEventListener("live:updated", (event) => setUpKeypads(event.target));
