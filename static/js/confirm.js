/* Confirm before an organiser control acts. Forms with data-confirm ask in a dialog, then
 * post with confirmed=yes. Without this script the server answers the first post with a
 * confirm page instead, so every control is confirmed either way. */
(function () {
  "use strict";

  function go(form) {
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = "confirmed";
    input.value = "yes";
    form.appendChild(input);
    form.setAttribute("data-confirmed", "1");
    form.submit();
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-confirm")) return;
    if (form.getAttribute("data-confirmed") === "1") return;
    event.preventDefault();
    var question = form.getAttribute("data-confirm");
    var dialog = document.getElementById("confirm-dialog");
    if (!dialog || typeof dialog.showModal !== "function") {
      if (window.confirm(question)) go(form);
      return;
    }
    document.getElementById("confirm-dialog-text").textContent = question;
    dialog.returnValue = "";
    dialog.onclose = function () {
      if (dialog.returnValue === "ok") go(form);
    };
    dialog.showModal();
    var ok = document.getElementById("confirm-ok");
    if (ok) ok.focus();
  });
})();
