// The site menu is a <details> disclosure: a "Menu" button on a phone, the full row of links
// from 40rem. On a wide screen it is kept open (browsers without ::details-content need that);
// Escape closes it on a phone and gives the focus back to its button.
(() => {
  const menu = document.getElementById("menu");
  if (!menu) return;
  const wide = window.matchMedia("(min-width: 40rem)");
  const sync = () => { menu.open = wide.matches; };
  sync();
  wide.addEventListener("change", sync);
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open && !wide.matches) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
})();
