"""The engine packed for the phone: exactly the repository's files, the same bytes every time,
enough on its own to run scorekeeper.portable.phone, served at its hash for a year."""

import io
import json
import subprocess
import sys
import zipfile

import pytest
from django.test import Client

from scorekeeper.offline import pack as offline
from tests.helpers.paths import REPO

PACKED_FILES = sorted(
    f"scorekeeper/{folder}/{path.name}"
    for folder in ("engine", "portable")
    for path in (REPO / "scorekeeper" / folder).glob("*.py")
)

# Run in a fresh interpreter with only the unpacked zip in front of the path.
RUN_PHONE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import scorekeeper.portable.phone as phone
form = {"side0-player0": "Ann", "side1-player0": "Bob", "first_dealer": "1-0"}
game = phone.start_game("baskets", form, "g1")["snapshot"]
view = phone.game_view(game, [])
print(json.dumps({
    "from": phone.__file__.removeprefix(sys.argv[1]),
    "dealer": view["dealer"],
    "django": sorted(m for m in sys.modules if m.split(".")[0] == "django"),
}))
"""


def names_in(packed: bytes) -> list[str]:
    return zipfile.ZipFile(io.BytesIO(packed)).namelist()


def test_the_zip_holds_the_engine_and_portable_folders_and_nothing_else():
    packed, _ = offline.engine_zip()
    assert names_in(packed) == ["scorekeeper/__init__.py", *PACKED_FILES]
    assert {
        "scorekeeper/engine/rules.py",
        "scorekeeper/engine/formatting.py",
        "scorekeeper/portable/phone.py",
        "scorekeeper/portable/round_fields.py",
    } <= set(PACKED_FILES)


def test_every_packed_file_is_the_repository_file_as_it_is():
    archive = zipfile.ZipFile(io.BytesIO(offline.engine_zip()[0]))
    for name in archive.namelist():
        expected = b"" if name == "scorekeeper/__init__.py" else (REPO / name).read_bytes()
        assert archive.read(name) == expected, name


def test_packing_again_gives_the_same_bytes_and_the_same_hash():
    packed, digest = offline.engine_zip()
    again, again_digest = offline.engine_zip.__wrapped__()
    assert again == packed
    assert again_digest == digest
    assert len(digest) == 12
    dates = {info.date_time for info in zipfile.ZipFile(io.BytesIO(packed)).infolist()}
    assert dates == {(1980, 1, 1, 0, 0, 0)}


def test_the_unpacked_zip_alone_runs_the_phone_without_django(tmp_path):
    zipfile.ZipFile(io.BytesIO(offline.engine_zip()[0])).extractall(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", RUN_PHONE, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "from": "/scorekeeper/portable/phone.py",
        "dealer": "Bob",
        "django": [],
    }


def test_the_engine_url_names_the_hash():
    assert offline.engine_url() == f"/offline/engine-{offline.engine_zip()[1]}.zip"


@pytest.mark.django_db
def test_the_zip_is_served_at_its_hash_to_be_kept_for_a_year():
    response = Client().get(offline.engine_url())
    assert response.status_code == 200
    assert response.content == offline.engine_zip()[0]
    assert response["Content-Type"] == "application/zip"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"


@pytest.mark.django_db
def test_an_old_hash_is_not_found_rather_than_given_other_bytes():
    assert Client().get("/offline/engine-0123456789ab.zip").status_code == 404


@pytest.mark.django_db
def test_the_zip_is_only_read():
    assert Client().post(offline.engine_url()).status_code == 405
