// A key for each report, made on the phone (services.idempotency): a form sent twice (a double
// tap, a resend after a timeout) saves one line. The key the server wrote into the form stays
// when the browser cannot make one (crypto.randomUUID needs https or localhost).
function makeReportKeys(root) {
  if (!window.crypto || typeof window.crypto.randomUUID !== "function") return;
  root.querySelectorAll("input[data-report-key]:not([data-made])").forEach((input) => {
    input.value = window.crypto.randomUUID();
    input.dataset.made = "1";
  });
}
makeReportKeys(document);
document.addEventListener("live:updated", (event) => makeReportKeys(event.target));
