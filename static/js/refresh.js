// Reloads the page every data-refresh seconds (on the element with that attribute), never while
// someone is typing in a form on it. The element's text says so.
(function () {
  const holder = document.querySelector("[data-refresh]");
  if (!holder) return;
  const seconds = Number(holder.dataset.refresh) || 30;
  holder.textContent = "This list updates itself every " + seconds + " seconds.";
  setInterval(function () {
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement?.tagName);
    if (!typing) location.reload();
  }, seconds * 1000);
})();
