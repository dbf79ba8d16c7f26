// A "Print" button: the browser's print dialog, without an inline script.
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});
