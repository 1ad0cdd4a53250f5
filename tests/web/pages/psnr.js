// RGB PSNR between two image addresses (a screenshot's data: URL, a PNG), both drawn at
// 640×480: how the browser tests compare a viewer's view with a reference in one browser.
window.psnr = async (a, b) => {
  const pixels = async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = new OffscreenCanvas(640, 480);
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0, 640, 480);
    return g.getImageData(0, 0, 640, 480).data;
  };
  const [p, q] = await Promise.all([pixels(a), pixels(b)]);
  let total = 0;
  for (let k = 0; k < p.length; k += 4) for (let c = 0; c < 3; c++) total += (p[k + c] - q[k + c]) ** 2;
  const mse = total / (p.length / 4 * 3);
  return mse === 0 ? 99 : 10 * Math.log10(255 * 255 / mse);
};
