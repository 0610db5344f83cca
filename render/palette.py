"""Fixed 256-colour palettes, one per game, so a picture is encoded without colour quantization.

Quantizing each picture afresh (an octree over a million pixels) cost more than drawing it. The pictures of one game
use the same few dozen fills and their anti-aliased blends, so one palette chosen from the game's sample tables fits
every table of that game: mapping a picture onto it is a fast nearest-colour lookup, the PNG stays small, and the same
table always gives the same bytes.

``PALETTES`` below is generated from seeded games' pictures (``render/__main__.py``); after changing how a game is
drawn run ``python -m render palettes`` to rebuild it (and look at the goldens). ``tests/render/test_table_features.py``
checks that pictures map onto their palette with no visible change.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

__all__ = ["FAST", "PALETTES", "palette_image", "png_level"]

# zlib-ng's level: the smallest files in the time a picture may take (``python -m bench render`` prints both). At 6
# every table comes out within 1.5x of the time Pillow takes for a blank PNG of its size (Azul's flat tables were
# 1.6-1.9x at 8, for 3 % fewer bytes; PNG compression was half the bot's busy time under load). Personal views and
# previews take 6 too.
FAST = 6


def png_level(game: str) -> int:
    """The zlib-ng level for a whole table of ``game``."""
    return FAST


@cache
def palette_image(game: str) -> Image.Image | None:
    """A one-pixel ``P`` image carrying ``game``'s palette (for ``Image.quantize(palette=...)``), or None."""
    colors = PALETTES.get(game)
    if colors is None:
        return None
    image = Image.new("P", (1, 1))
    image.putpalette(bytes.fromhex(colors))
    return image


# fmt: off
PALETTES: dict[str, str] = {
    "azul": (
        "d3605b5d2f2f272322615121f7cf55dab02f6a9edf82e0ea1e4f90213b6162acb5a35d5babaaa731744f917635daa1a0"
        "535c6c9d302e3b9f5ee2ba43d2d1cc9c823340ae66fcdb23a7b1c4cd443e666f8045c06ffbe79b3f403ea994472a3140"
        "1b202b3a4254000000535e75424c604bd87ad63630f5c430fec7281c1d24f0f3f73238474c566c6d654a653e4a4a6a7a"
        "77d3dd344e752670cd285898a4862916161c272b37858589e1e2e5a0aabbfea096dcdee1548c96932b298e2a29fe6d63"
        "7ad8e2444a58983a3d36363c55939b204e8c22242be1b42c2b303dd9d9ddaa903d2672d12367bdc5322d6ec2ccdee1e5"
        "f5f3eb94949a226dcd585c65609ca9878b955c99a4e26e69373e50f8d569b9962b6498dbd5322bd52a23666b76edf1f6"
        "285ba09ba5b866666a747a85a5a6a6959ba69ce2e91a69cda78c38b3b6bddde5f057575c444349eaedf2c42f2aa32c29"
        "c2c5cb3056895da2aa783d45c8ccd35c6372746a48da7876f99d938b94a69bdee672c9d37a8394b8bcc37ee0ea80e2ec"
        "7d7147d85753335078e9948dcd85814c778336515b594953e2dee1897844b37877305a934a505d6bbbc5d7ac2dbec1c9"
        "fed1316c7484d88b869da1aa433e287d828ceddddd8c919a6c717c5c616ccdd1d89a8543f9d2597273783c5b650a1229"
        "528ddaa67272273756be312dc9a22dacb1b93a414de2e0da1c23338861662c424b5a584e55404e527d8b364968b4c6de"
        "3477cd534a2b6b535a3a36293277d0252d409d80291b539d645a367ea6d942b76a26583c48412792782a080b1540646d"
        "976a6c4d808ae15d589bb8dc89722d624e573e646d44433cb39435e3716d949eb0fedb23142142423d49afc3ded9615c"
        "68592a0d121c534d3825416a887436f0eee7224633795a60c4817e4d2e37813e45767e90e2615b47c87353818da3e3ea"
        "e8bb30a08940da9b9a72633535895483a8d7642d3359533ac29c2bb08e2a858ea0866d232c6a45cba43039975af1be28"
        "74622a572c344585d671c4ce244a7d77595f8cdce51d362b9cbbe3aec6e5b0c8e66d603477353946747c27241d3da662"
    ),
    "queens-garden": (
        "ada1c8221d25cbacdd4c24610f552d9f9eabdbdce2d95f581f579e152e592172da5050555d31329dd760b2cbeb23664a"
        "538c65545a2cb3514d689ee29d78adf5cf3180a45b3b81da6ca082a1c2af83543a45c16f7e5093813e3dc1c0bca99431"
        "c0bfbb2c804f7639915f803ff0bf302a3140262c3a1b202b000000363e5060687a5b6880424c60f3f5f914161c4bd87a"
        "8b94a6fec727a0aabcf5f3eb622a7cc39be31b6b3df5c4302670ce9ba4b79cd6603b4355333a49444b5a7a8395828a9b"
        "6b73844b5364737b8b535b6a181d275c6475939aa929303ee3e6eaeef1f6eaedf2fe6d63c7cbd3d9dce3b6bbc4949eb1"
        "858ea1666e81b2b6bed2d6dcbdc1c9757e90e8b729c1c5cd9ca1ab363a3ea5a6a8dde1e6565e7025272acdd1d88c919b"
        "7d828dadb2bb4a505e262e406c717d162343a789335b616c39404e07112bd7ab291c23339e802890959e655320caa22b"
        "47453c27241db9952842b76a26583ca98826947c33655b39ba94d9836b23c39d2b07091853451f47c872214633368855"
        "6a3583977a242a6b44fed2299576ab29734894ca5c5a533ab4933039321e357ad1f1be288357980d1219fed432312c1d"
        "2875d6a586b7453b54ddb02c76673757753c89743538965a7a6322246dca1b372b8c722567557ad4c4db453b1e848585"
        "584a213da662d4a8f6d7e5f6a28b42669adc9a7cb499d25e703d88682b83e5dce9a887c554466579797996bae71b4274"
        "a6e5659b81332a35264886d586b655cab7d237472d5d24774a8964391d49c5d9f286679c4c411fb18d24648844cba1ec"
        "030e2b75448c514c3b926aa4bdd4f1445b348c71a4327b518bb2e48c67a0715d21e2e0d9725d861967cac2d7cbd7d6cf"
        "538ed896bba577a24d5b95737b4c917ca950f1edf489b39aa1dd62443a2076a68a3ca05f7aa8e17d6693343b27221b26"
        "581c735a92d9729b4b77618d302b3c30794d6d5a816d6038aac7ebbad2c53d51306d9448b69bc2649a7baac7b6d4e3da"
        "a64c48b195bd5d7d4040ae664d4320516c3a40835d1d7341ecbe30b4cdedb2cdbd3729459245427cab9082ade23d4736"
    ),
    "summer-pavilion": (
        "9c9b9462679491666160513155302c5b5a5bd6d8dbaf9cceea9d3251ab699e8a66de64605f96da1e58a33a9a562e2c22"
        "2b575d8d71a227365a7494a3ae8e2dd59d9ea06725f8d465f3aa5ea4c8ae57c5775e374ecd6226b12e2afed725387cd1"
        "c4c0ad9760c27dc289269b3bc9322cc6b6cbb6ceda294233803eb67238ac417ecc3e80d3083c882a31401b202b000000"
        "687080434c60f0f3f8723339284b7b523c737e54343160457e6e384bd87af5c430363d5139a24bf28424d636302670cd"
        "894db9303848fec728a0aabbdddee13b4458191d27555e70252b384c54675e667614161c464a5860564bd7d9dceaecf2"
        "e3e6ebb5bac4eef1f63b5455838a989ba5b8949ba8747b892a303e374b6c545b697b83948c95a6a385285a404d646b78"
        "c7cad3f5f3eb236dcca15c21204e8cb86822ba962a2725278d2a292c6d3a633a87e27c23abb2babcc1c9a32c29c2c6cd"
        "942b299ba2aadde1e76d523e2c743b5054575e3980cdd2d8514e566639432158a1355b4c0c1528706643b3b6bca5a6a9"
        "2672d16a3e91824d208c51bbd5322c275a36307c3e8b919c34373e846d252052951d4375ec81237c818d172946e8b82a"
        "762626fe6d63865125aa6121d52a2446a657979bb1cca42b252d419d5a21bdaaa7369d486c727d4b42224d33691d3828"
        "4a505db7a7965b616d317e403288421a69cd1c23324b321ef2811ea373c8ab82cc3478cef6a763c2b6aa99aac2b4302c"
        "91959db3cbbaf79c4c6397d8868ca13b414df8d66a74439d9e8128d87976e26e6ab7641ba68933bdb8a46d409362b670"
        "b89ea4fad2589cb2a9b8c6d9518cd95844782360ad451e21a5b4cac7b8b7254837322443c97022c6b8d51b539db3979a"
        "9966c2fed131da9b9ae15c5787794793792971bc7ed5ab2cd3c9c8d74a44685685544a28382a26889cb72e9d41cac5b8"
        "a49cb8f3c844375885b9b39c557c66b2abc3f1eee789722b815839896448925cbd060b1783723b88545a92865a6a482d"
        "a497788ca59a6789778bc1960d121c94745b070e22d5d2cb24508b84a8d7998965d87621789688665727c29c2c49725b"
    ),
}
