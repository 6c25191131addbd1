"""arena.process.manifest: loading bot.yaml, its errors, the content hash, command resolution."""

import sys
from pathlib import Path

import pytest

from arena.process import BotManifest, BotStartError, ManifestError, bot_hash, load_manifest
from arena.process.manifest import resolve_command

FIXTURES = Path(__file__).parent / "process_fixtures"


def write_bot(folder: Path, manifest: str, files: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.yaml").write_text(manifest)
    for name, text in (files or {}).items():
        (folder / name).write_text(text)
    return folder


def test_loads_a_full_manifest_and_turns_a_numeric_version_into_text():
    manifest = load_manifest(FIXTURES / "echo")
    assert manifest == BotManifest(
        name="echo",
        version="1",
        authors=("Arena tests",),
        command=("python", "bot.py"),
        folder=(FIXTURES / "echo").resolve(),
        description="Writes back every line it reads.",
    )


def test_a_command_list_is_kept_word_for_word(tmp_path):
    folder = write_bot(tmp_path / "b", "name: b\nversion: '2.0'\ncommand: [node, 'my bot.js']\n")
    manifest = load_manifest(folder)
    assert manifest.command == ("node", "my bot.js")
    assert manifest.authors == ()
    assert manifest.description == ""


def test_a_command_string_is_split_like_a_shell(tmp_path):
    folder = write_bot(tmp_path / "b", "name: b\nversion: 1.5\ncommand: python 'my bot.py' -v\n")
    manifest = load_manifest(folder)
    assert manifest.command == ("python", "my bot.py", "-v")
    assert manifest.version == "1.5"


def test_missing_folder(tmp_path):
    with pytest.raises(ManifestError, match=r"'.*nowhere' does not exist; give the path"):
        load_manifest(tmp_path / "nowhere")


def test_folder_without_bot_yaml(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ManifestError, match=r"'.*empty' has no bot\.yaml; add one with name"):
        load_manifest(tmp_path / "empty")


def test_broken_yaml_names_the_file_and_line(tmp_path):
    folder = write_bot(tmp_path / "b", "name: b\nversion: 1\ncommand: [python, bot.py\n")
    with pytest.raises(ManifestError, match=r"bot\.yaml' is not valid YAML at line \d+: .*fix"):
        load_manifest(folder)


def test_missing_command(tmp_path):
    folder = write_bot(tmp_path / "b", "name: b\nversion: 1\n")
    with pytest.raises(ManifestError, match=r"bot\.yaml': missing 'command'; add e\.g\. 'command"):
        load_manifest(folder)


def test_unknown_key_lists_the_allowed_keys(tmp_path):
    folder = write_bot(tmp_path / "b", "name: b\nversion: 1\ncommand: x\ncolour: red\n")
    with pytest.raises(
        ManifestError,
        match=r"unknown key 'colour'; allowed keys are name, version, authors, command, descr",
    ):
        load_manifest(folder)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("version: 1\ncommand: x\n", r"missing 'name'; add 'name: \.\.\.'"),
        ("name: b\ncommand: x\n", r"missing 'version'"),
        ("name: [1]\nversion: 1\ncommand: x\n", r"'name' must be a non-empty one-line text"),
        ("name: b\nversion: 1\ncommand: 7\n", r"'command' must be a string or a list of str"),
        ("name: b\nversion: 1\ncommand: [x, 2]\n", r"'command' must be a string or a list"),
        ("name: b\nversion: 1\ncommand: ''\n", r"'command' is empty"),
        ('name: b\nversion: 1\ncommand: "python \'bot"\n', r"cannot be split .* fix its quot"),
        ("name: b\nversion: 1\ncommand: x\nauthors: [1]\n", r"'authors' must be a list of names"),
        ("name: b\nversion: 1\ncommand: x\ndescription: [1]\n", r"'description' must be text"),
        ("- just\n- a list\n", r"must be a mapping of name, version, command"),
    ],
)
def test_ill_typed_fields(tmp_path, text, message):
    folder = write_bot(tmp_path / "b", text)
    with pytest.raises(ManifestError, match=message) as info:
        load_manifest(folder)
    assert "\n" not in str(info.value)
    assert str(folder / "bot.yaml") in str(info.value)


def test_manifest_error_is_a_value_error():
    assert issubclass(ManifestError, ValueError)


def test_bot_hash_changes_with_content_and_names_but_not_with_ignored_files(tmp_path):
    folder = write_bot(tmp_path / "b", "name: b\nversion: 1\ncommand: x\n", {"bot.py": "A"})
    first = bot_hash(folder)
    assert len(first) == 64
    assert bot_hash(folder) == first
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"\0")
    (folder / "node_modules").mkdir()
    (folder / "node_modules" / "dep.js").write_text("x")
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_text("x")
    (folder / ".hidden").write_text("x")
    (folder / "old.pyc").write_bytes(b"\0")
    assert bot_hash(folder) == first
    (folder / "bot.py").write_text("B")
    changed = bot_hash(folder)
    assert changed != first
    (folder / "bot.py").rename(folder / "main.py")
    assert bot_hash(folder) != changed


def test_bot_hash_of_a_missing_folder(tmp_path):
    with pytest.raises(ManifestError, match="does not exist"):
        bot_hash(tmp_path / "nowhere")


def test_python_runs_the_arenas_interpreter_and_files_become_absolute():
    manifest = load_manifest(FIXTURES / "echo")
    assert resolve_command(manifest) == (sys.executable, str(manifest.folder / "bot.py"))


def test_relative_program_is_found_in_the_bot_folder_and_options_are_kept(tmp_path):
    folder = write_bot(
        tmp_path / "b", "name: b\nversion: 1\ncommand: ./run.sh -v data fast\n", {"run.sh": ""}
    )
    (folder / "run.sh").chmod(0o755)
    (folder / "data").mkdir()
    argv = resolve_command(load_manifest(folder))
    assert argv == (str(folder / "run.sh"), "-v", str(folder / "data"), "fast")


def test_other_programs_are_looked_up_on_path(tmp_path):
    folder = write_bot(tmp_path / "b", "name: b\nversion: 1\ncommand: sh -c true\n")
    assert resolve_command(load_manifest(folder), path_env="/usr/bin:/bin")[0] in (
        "/usr/bin/sh",
        "/bin/sh",
    )


def test_program_not_on_path(tmp_path):
    folder = write_bot(tmp_path / "b", "name: b\nversion: 1\ncommand: no-such-program-xyz\n")
    with pytest.raises(BotStartError, match=r"'no-such-program-xyz' not found on PATH; install"):
        resolve_command(load_manifest(folder))


def test_relative_program_missing_or_not_executable(tmp_path):
    folder = write_bot(tmp_path / "b", "name: b\nversion: 1\ncommand: ./run.sh\n")
    with pytest.raises(BotStartError, match=r"program './run.sh' not found"):
        resolve_command(load_manifest(folder))
    (folder / "run.sh").write_text("#!/bin/sh\n")
    with pytest.raises(BotStartError, match=r"is not executable; run 'chmod \+x"):
        resolve_command(load_manifest(folder))


def test_python_module_and_code_arguments_are_not_taken_for_paths(tmp_path):
    folder = write_bot(tmp_path / "b", "name: b\nversion: 1\ncommand: python -m mybot mybot\n")
    (folder / "mybot").mkdir()
    argv = resolve_command(load_manifest(folder))
    assert argv == (sys.executable, "-m", "mybot", str(folder / "mybot"))
