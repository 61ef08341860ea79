/* Refuse an oversized decklist in the browser, before sending it: the text stays in the box
 * and the error shows at the top of the form. (The server refuses it too, more slowly, and a
 * body over the site's limit never reaches the form at all.) Fields carry data-max-bytes. */
(function () {
  "use strict";

  function bytes(text) { return new Blob([text]).size; }

  function tooBig(form) {
    var found = null;
    form.querySelectorAll("[data-max-bytes]").forEach(function (field) {
      if (found) return;
      var max = parseInt(field.getAttribute("data-max-bytes"), 10);
      var size = 0;
      if (field.type === "file") {
        if (field.files && field.files.length) size = field.files[0].size;
      } else {
        size = bytes(field.value);
      }
      if (max && size > max) found = { field: field, size: size, max: max };
    });
    return found;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    var problem = tooBig(form);
    if (!problem) return;
    event.preventDefault();
    var box = form.querySelector(".size-error");
    if (!box) {
      box = document.createElement("div");
      box.className = "panel deck-error size-error";
      box.setAttribute("role", "alert");
      form.insertBefore(box, form.firstChild);
    }
    var template = problem.field.getAttribute("data-max-bytes-message") || "Too large: %(size)s KB; the limit is %(max)s KB.";
    box.textContent = template.replace("%(size)s", Math.ceil(problem.size / 1024)).replace("%(max)s", Math.floor(problem.max / 1024));
    box.scrollIntoView({ block: "center" });
    problem.field.focus();
  }, true);
})();
