import StageFiles

#if canImport(Glibc)
  import Glibc
#endif

/// `imagestage`: the command-line tool. Thin: parse arguments, call the adapters and cores,
/// print. Exit codes: 0 success, 1 failure while running, 2 bad input or usage.
let usage = """
  usage: imagestage board run FILE.json [--frames HZ] [--state FILE]
         imagestage pano info IN
         imagestage pano render IN -o OUT.png|.jpg [--yaw D] [--pitch D] [--roll D] [--hfov D]
                [--size WxH] [--projection equirect|cylindrical] [--mode perspective|strip]
                [--edges clamp|repeat] [--threads N]
         imagestage pano video IN --motion LOG.csv -o OUT.mp4|DIR|- [--fps N] [--size WxH]
                [--hfov D] [--mode perspective|strip] [--camera-log FILE] [--raw-motion]
         imagestage pano sample -o OUT.jpg|.png [--size WxH]
         imagestage help

  IN is a JPEG or PNG file, or "sample" for the built-in panorama; images over
  --max-pixels MP megapixels (default 160) are refused before decoding. Angles in degrees:
  yaw 0 looks at the image's centre column, positive yaw turns right, positive pitch up.
  See docs/cli.md, docs/scenario.md and docs/motion.md.
  """

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.prefix(2).joined(separator: " ")
switch command {
case "board run":
  exit(BoardCommand.run(Array(arguments.dropFirst(2))))
case _ where arguments.first == "pano" && arguments.count >= 2:
  exit(PanoCommand.run(arguments[1], Array(arguments.dropFirst(2))))
default:
  if arguments.first == "help" || arguments.first == "--help" || arguments.isEmpty {
    print(usage)
    exit(arguments.isEmpty ? 2 : 0)
  }
  Console.error("unknown command \"\(arguments.joined(separator: " "))\"\n\(usage)")
  exit(2)
}
