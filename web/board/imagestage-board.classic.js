// ImageStage's board for pages without modules: a classic script that offers
// `ImageStage.board(container, options)`, returning a promise of the board (the module,
// imagestage-board.js beside this file, is imported on first use).
//   <script src="imagestage-board.classic.js"></script>
//   <script>ImageStage.board('#grid', { items: 'img', slots: '.cell' }).then(function (b) { … });</script>
(function () {
  'use strict';
  var here = document.currentScript && document.currentScript.src;
  var moduleURL = new URL('imagestage-board.js', here || location.href).href;
  var loading = null;

  function load() {
    if (!loading) loading = import(moduleURL);
    return loading;
  }

  function board(container, options) {
    return load().then(function (m) { return m.board(container, options || {}).ready; });
  }

  window.ImageStage = window.ImageStage || {};
  window.ImageStage.board = board;
})();
