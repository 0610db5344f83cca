"""Fixed 256-colour palettes, one per game, so a picture is encoded without colour quantization.

Quantizing each picture afresh (an octree over a million pixels) cost more than drawing it. The pictures of one game
use the same few dozen fills and their anti-aliased blends, so one palette chosen from the game's sample tables fits
every table of that game: mapping a picture onto it is a fast nearest-colour lookup, the PNG stays small, and the same
table always gives the same bytes.

``PALETTES`` below is generated from seeded games' pictures (``tools/pictures.py``); after changing how a game is
drawn run ``python -m tools.pictures palettes`` to rebuild it (and look at the goldens).
``tests/render/test_table_features.py`` checks that pictures map onto their palette with no visible change.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

__all__ = ["FAST", "PALETTES", "POSTED", "PREVIEW", "palette_image"]

# zlib-ng's level: the smallest files in the time a picture may take (``python -m bench render`` prints both). At 6
# every table comes out within 1.5x of the time Pillow takes for a blank PNG of its size (Azul's flat tables were
# 1.6-1.9x at 8, for 3 % fewer bytes; PNG compression was half the bot's busy time under load). Personal views take 6
# too. A game's renderer may choose another level for its tables (``Renderer.png_level``).
FAST = 6
# The board posted after every move: the picture the bot makes most, so time counts more than bytes. At 1 (zlib-ng's
# quick strategy) deflate takes 25-35 % less time than at 2 and half that at 3 (0.6 against 0.8 and 1.05 ms an Azul
# board, 1.0 against 1.2 and 1.6 a Summer Pavilion one) for 35-40 % more bytes than at 2 (28 against 21 KB, 48
# against 35): about 10 KB more to upload per move, a few hundredths of a millisecond of the event loop's TLS, and
# still a two-hundredth of Discord's smallest upload limit; a phone shows it the same (the pixels are the same).
# Level 6 takes three times as long as 1 for 40 % fewer bytes (``python -m bench render`` prints time and size,
# ``--posted`` the CPU per board).
POSTED = 1
# A previewed step's picture (Queen's Garden's expansions): sent once to the player choosing, dense with hexagons,
# so compressing is half its time; at 5 it takes 45 % less time than at 6 for 6 % more bytes (17.0 -> 18.1 KB).
PREVIEW = 5


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
        "5232321f1b1cd26d6a1e4f90dbb02e8c733030744cdda9a860a7b0a15d5caaa9a683dfe8f9d76c584a22d6cbc74786d5"
        "a5bcdb97312f9c823340ae66646e80db443e45c06fdcbfc03e80d3338551e5827e263e61e0d09b3f403e2a3140000000"
        "1b202a3a4254424c60535e754bd87ad63630f5c430f0f3f71d1d243238474c566b6d654a653e4a4a6a7a77d3dd344e75"
        "fec7282670cd28589815161ca48529858589a0aabcfea096e1e2e6272b36dcdee1548c968e2a28932b297ad8e2fe6d63"
        "444a58983a3d36363c204e8c55929b21232bd9d9dde1b42caa903df5f3eb2672d1c5322d2367bd6ec2ccdee1e5236dcd"
        "2c313c575c66939499609ca9878b945c99a4e26e69f9d669d5322b9ba5b8373f50757a86666b776498dbedf1f6b9962b"
        "a6a6a6d62a2355555a285ca0949aa61b69cde9edf2b3b6bd9ce2e966666adde5f0c2c5cbc8ccd3a88c39444249c42f2a"
        "305689783d458b94a6f99d935da2aba32c2972c9d3746a485c6372cba32cb8bbc3da78769cdee680e2ec7b84957ee0ea"
        "7d7147e9948d335078b8302cd857535849524c7783cd85816b748536515bb37877e2dee1d8ad2c897844305a936bbbc5"
        "fed132bec1c99da1aacdd1d8d88b867d828c8c919a6c717d433e2865b1bb858ea0eedddd5c616c4a505d3a414da67172"
        "acb1b9528dd98862663579d02360aef9d259e2e0da949eb02c424b7374795a584e44433c6b535a55404e527d8b364a69"
        "534a2a3b5a64b4c6de988341f0eee73377ce3a3629348853a2e4eb0f14274841277ea6d9b39434976a6c8874354d8089"
        "40646d423d492839551b539d89722d624e57e3716d3e646d655a379cb8dc224834524d399d812b39995c47c973e15d58"
        "afc3de86d9e2d9615c649ae0757e90d84a45f4c845c4817e795a60f0bd28db9c9a2b6844736536813e454d2f38e2615b"
        "53818d5a533ab22d296a5a2942b96ba08940e9bc3026426924497d1f5dad3da562c19c2c977c2acba43084a8d726573c"
        "76585e1e2435642d3373622b4f5a70b08e2b1d352b45737b70c4ceb0c7e57a2c2daec6e59cbbe37735396d603572a2e0"
    ),
    "queens-garden": (
        "a84d49552e2f1d1f1ecfe0e03386529fc1ad295f407caa907e5093a07eb06ea0de80ae528fb6a0813f3dd0bfd785403f"
        "d65f582a3140000000262c3a1a202a363e5060687a5c6880424c61f2f5f914161c4bd87a8b94a6a0aabcf5f3ebfec728"
        "622a7cc39be3f4c3301c6c3e2670ce9bd5609ba4b7333a49444b5a4b5363838a997b8495737b8b535a6afe6d635b6374"
        "6b74853b4352939ba9e4e6ebeef1f6e9ecf2c7cbd3b7bcc5d8dce2cdd2d9949eb1858ea0bdc1cab2b6bed2d6ddc1c5cd"
        "dde1e78a909d757e90a5a6a7adb2bc666e8035393ee9b82a9ca1ab7d828d6c717dd5aa2c5b616c49505e47453c39404e"
        "555e7027241d242629a789313686542a313d90959fcaa22c9877ab655b395a533a9b7c23b493302247341a1c2247c873"
        "29694376673739995bb99529897435675522c39d2c947c34473d20a5852676468c6d6038ba94d9ddb02c42b96b6a3582"
        "b357572973479b8133f1be29cd605c4685d5aa88c63da561d7e5f6845898554867367ad1c8dbf2e3d9e787b85578a6e0"
        "2a352786679b514d3b26573b99d25ea586b835452c93ca5b584a21ea67607a6322a8c6eb73a488435833322d1ef1ecf3"
        "669adc4438461c352b307a4d66424a53451fcbb9d439321e916aa4d3c4da5a92d9668a459a7cb4dacde0d5e3dbd9625c"
        "846b22eaf1ed729c4ba8c7b5c65d594a8965453b54347c534b633740ae6678a34e3a3822bad2c496bae7e4655e443a1e"
        "8c72257a7a7a858584d7d6cfe2e0d9703d87b18d24655377629a7a48292ca654558dc1587daa502e75d0322d3ec1abcb"
        "5a9472b2cced8bb2e4b69bc1693536bca4c7c5b0ce96bba6528dd8261d2345c06f715d22bcd3f04c4121563d4756743d"
        "725d8788b29a7d65938c71a57a4b91b8d0ef5d7d404d411f1e6d40c3d8cc8a4c508b69a078474dafb5c09850526c9348"
        "84494db28ed03e80d3b08dcd82ace240835db2cdbd816e3654906d518e6b6d5a813d45383e513137232778628d342f41"
        "70a1dfa07eaf516c3ab094bd9e8028c099df5e4e705d4049699e80ad91bb604f209f80ba924e516ea183763a3a82ae95"
    ),
    "summer-pavilion": (
        "5e68929c9b93916661a6a3d16d542c5d645dd8d7dc399856dda02f1c1e2252aa6a76929bab8c309e8a6c9fc7a9e26d69"
        "6397da2c5b588d72a2d7a4a49f6825602f2f293452d8652bfad86e47c772f6a96ac4c0aecbb7cb225aa49966c2703a44"
        "269b3bb3cedda7312e3e80d3ce312c803db73f403e7f3bb62a31400000001b202a687080424c60f0f3f8284b7b523c73"
        "7233397e54347e6e383160454bd87af5c43039a24b363d51d63630a0aabc894db9f284242670cddddee13038483c4458"
        "fec728555e701a1e274c54675e667714161c252a36464a59d7d9dc60564beaecf2747b8ae3e6eb9ba5b8eef1f6b5bac4"
        "3b5455838a98949aa7374c6ca38428545b69646b795a404df5f3eb2c6c3a246eccc7cad38b94a5204d8c8d2a287b8494"
        "858da0fe6d63abb2ba8c50bcbcc1c9328842b86823623a85c2c6cdcca42b942b28ba962aa15c219ba2aacdd2d92572d2"
        "dde1e75054579d5a216e523e514e56b3b6bc66394374439d2c733ba5a6a9ed8224d5322c706643a32d2ae37c23b3302c"
        "355b4c2725262259a10e1526846d26969cb148a759c97022834d208b919c2052942360ae275b357626267c818d1d4375"
        "5e39802b333cd62b2434373e307c3e1b69cda960214e326a369e486a3e90bdaaa76c727d317e414b4222e9b92bd84a44"
        "b7a7965b616c192d48fbd86ae46e6af9a862f1811f1d38283478ce9764c18751254a505df3c845c2b6a999aac23b414d"
        "91959db22d2963b4724b321eb3cbbb6d4093533926da9b9abdb8a5451e21767d91aa83cb6598d8b7c5d9b89ea49cb2a9"
        "fed13271c07ea274c7847238d87976584478a5b4ca47453cc7b8b7639ae03c7ed2322444d6ab2c1f5dadae81d1d3c8c7"
        "b3979af2913b463628877947528cd7ca6e1ef1eee7889cb7c6b8d59e8128685685cac5b8a49cb8ff9126534928925cbd"
        "375885896448b2abc4b9b39c815839957b2af79c4d23508b557c6788545aa49778fad25838292792865a88712c244836"
        "a1a19e2e9e4294745bd5d2cb59523940444e678a788ca59ab7641b71bd7e1b539d1b4e9299896541343a7ac287e15d58"
    ),
}
