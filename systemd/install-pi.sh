#!/usr/bin/env bash
# Set up a Raspberry Pi OS machine to run the pitboard table service.
#
#   sudo make install-pi PROFILE=grid6          # or: sudo PROFILE=duo systemd/install-pi.sh
#   make install-pi-dry-run PROFILE=grid6       # or: systemd/install-pi.sh --dry-run
#   sudo make install-pi PROFILE=/home/pi/my-table.toml    # a profile file of your own
#
# Every step looks before it acts and acts only on a difference, so running it again reports
# "nothing changed".  A dry run prints each action (and its command) and touches nothing.
#
# The configuration /etc/pitboard/pitboard.toml is written only when there is none yet.  Once
# installed it is yours (kiosk mode, the staff PIN, ...): running the installer again keeps it,
# reads the boot settings from it, and only says when it differs from the profile.  To replace it
# with the profile, ask: NEW_CONFIG=1 (or --new-config) shows the diff and keeps the old file as
# pitboard.toml.old (add --dry-run to see the diff without changing anything).
#
# Options:
#   -n, --dry-run      print what would be done, touch nothing
#   --new-config       same as NEW_CONFIG=1
#   -h, --help         this text
#
# Environment:
#   PROFILE=duo        a profile name (hw_config/$PROFILE.toml) or the path of a profile file
#                      (anything with a "/" or ending in .toml); installed as
#                      /etc/pitboard/pitboard.toml when there is none there yet
#   NEW_CONFIG=1       replace an installed configuration that differs from the profile
#   DRY_RUN=1          same as --dry-run
#   ROOT=/some/dir     prefix for every file read or written on the target (tests, staging);
#                      apt-get, useradd & co. still act on this machine
#   UART=auto|0|1      enable_uart=1|0 (auto: 1 when the profile's console.port is one of the
#                      Pi's UARTs: /dev/serialN, ttyAMAN or ttySN, the rule of
#                      pitboard.hwconfig.is_pi_uart, asked of check-config --install-facts)
#   SPI=auto|0|1       dtparam=spi=on|off (auto: on when a station display is on SPI)
#   EXTRA_APT="a b"    more Debian packages to install
#   PITBOARD_SRC=dir   checkout to install from (default: the one holding this script)
#   WHEEL=file.whl     install this built wheel (the one the tests ran) instead of building
#                      one from the checkout
#
# What gets installed is a wheel: built from the checkout (pip wheel) or the one WHEEL names,
# installed into /opt/pitboard/.venv, with /usr/local/bin/pitboard linking to its command.
# Before anything changes, `pitboard check-config` (of the code about to be installed) checks
# the profile and, when it is kept, the installed configuration: one that does not pass is
# refused (exit 2, one line, nothing changed).
set -euo pipefail

PROFILE=${PROFILE:-duo}
NEW_CONFIG=${NEW_CONFIG:-0}
DRY_RUN=${DRY_RUN:-0}
ROOT=${ROOT:-}
UART=${UART:-auto}
SPI=${SPI:-auto}
EXTRA_APT=${EXTRA_APT:-}
WHEEL=${WHEEL:-}
SRC=${PITBOARD_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

SERVICE=pitboard.service
SERVICE_USER=pitboard
DEVICE_GROUPS=(gpio i2c spi dialout)
# python3-lgpio comes from apt on Pi OS; the venv sees it through --system-site-packages.
APT_PACKAGES=(python3 python3-venv python3-pip python3-lgpio i2c-tools)
# an SPI display needs spidev, and luma drives its D/C and RESET lines through the RPi.GPIO
# API, which rpi-lgpio provides on lgpio (RPi.GPIO itself does not work on a Pi 5).
# python3-rpi-lgpio is the apt name rpi-lgpio's documentation gives (Raspberry Pi OS, Ubuntu;
# plain Debian has no lgpio packages at all); it replaces python3-rpi.gpio, which installs the
# same RPi.GPIO module, so apt removes that one.
SPI_APT_PACKAGES=(python3-spidev python3-rpi-lgpio)

PREFIX=$ROOT/opt/pitboard
VENV=$PREFIX/.venv
# the command on PATH: a link to the venv's, as the target sees it (without $ROOT)
COMMAND_LINK=$ROOT/usr/local/bin/pitboard
COMMAND_TARGET=/opt/pitboard/.venv/bin/pitboard
CONFIG=$ROOT/etc/pitboard/pitboard.toml
UNIT=$ROOT/etc/systemd/system/$SERVICE
WEB_DROPIN=$ROOT/etc/systemd/system/$SERVICE.d/web.conf
# [tv] screen: the desktop opens the track view at login (the XDG autostart folder, which
# desktop sessions read at login)
TV_AUTOSTART=$ROOT/etc/xdg/autostart/pitboard-tv.desktop
MODULES=$ROOT/etc/modules-load.d/pitboard.conf
# the kernel's pca954x driver leaves the last channel connected unless idle_state is -2
# (Documentation/ABI/testing/sysfs-bus-i2c-devices-pca954x): set it when the driver binds
MUX_RULE=$ROOT/etc/udev/rules.d/60-pitboard-i2c-mux.rules
BLOCK_BEGIN="# >>> pitboard: managed by install-pi.sh, edits between these lines are replaced >>>"
BLOCK_END="# <<< pitboard <<<"

changes=0
changed=0
reboot_needed=0

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

for arg in "$@"; do
    case $arg in
        --dry-run | -n) DRY_RUN=1 ;;
        --new-config) NEW_CONFIG=1 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install-pi: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

say() { printf '%s\n' "$*"; }
die() { printf 'install-pi: %s\n' "$*" >&2; exit 1; }
refuse() { printf 'install-pi: refused: %s\n' "$*" >&2; exit 2; } # bad input: nothing changed

# act DESCRIPTION COMMAND...: the one place where anything changes; a dry run only prints it.
# The command line (or, for a file, the $detail diff) is shown under the description.
detail=""
act() {
    local what=$1
    shift
    changes=$((changes + 1))
    if [[ $DRY_RUN == 1 ]]; then say "would: $what"; else say "change: $what"; fi
    if [[ -n $detail ]]; then
        say "$detail"
        detail=""
    elif [[ $(type -t "$1") != function ]]; then
        say "    $(printf '%q ' "$@")"
    fi
    [[ $DRY_RUN == 1 ]] || "$@"
}

ok() { say "ok: $*"; }

# write_text DEST MODE TEXT: replace DEST through a temp file and rename, so a power cut
# leaves the old file or the new one (config.txt must never be half written).  MODE "-" skips
# chmod, which vfat (/boot/firmware) refuses.
write_text() {
    local dest=$1 mode=$2 text=$3
    mkdir -p "$(dirname "$dest")"
    printf '%s' "$text" >"$dest.pitboard-tmp"
    [[ $mode == - ]] || chmod "$mode" "$dest.pitboard-tmp"
    sync "$dest.pitboard-tmp"
    mv -f "$dest.pitboard-tmp" "$dest"
}

# put_text DEST MODE TEXT: make DEST hold exactly TEXT; sets changed=1 if it had to.
# (These helpers always return 0: called from an `if`, bash would ignore errors inside them.)
put_text() {
    local dest=$1 mode=$2 text=$3
    changed=0
    if [[ -f $dest ]] && cmp -s "$dest" <(printf '%s' "$text"); then
        ok "$dest"
    else
        changed=1
        detail=$(show_diff "$dest" <(printf '%s' "$text"))
        act "write $dest" write_text "$dest" "$mode" "$text"
    fi
}

# apply_idle_disconnect: set idle_state -2 on every pca954x mux bound now (the udev rule only
# acts when the driver binds); none bound yet after the rule changed: the reboot applies it.
apply_idle_disconnect() {
    local state_file bound=0
    for state_file in "$ROOT"/sys/bus/i2c/drivers/pca954x/*/idle_state; do
        [[ -e $state_file ]] || continue
        bound=1
        if [[ $(<"$state_file") == -2 ]]; then
            ok "$state_file is -2"
        else
            act "set $state_file to -2 (idle disconnect, now)" write_idle_state "$state_file"
        fi
    done
    if ((changed && !bound)); then
        reboot_needed=1
    fi
}

link_command() {
    mkdir -p "$(dirname "$COMMAND_LINK")"
    ln -sfn "$COMMAND_TARGET" "$COMMAND_LINK"
}

write_idle_state() { # the kernel may refuse (an old driver): then the reboot applies the rule
    if ! { printf '%s\n' -2 >"$1"; } 2>/dev/null; then
        say "    could not write $1: the rule applies after a reboot"
        reboot_needed=1
    fi
}

show_diff() { # show_diff OLD NEW: what a write changes, indented under its action
    if [[ -f $1 ]]; then
        diff -u --label "$1" --label "$1 (new)" "$1" "$2" | sed 's/^/    /' || true
    else
        sed 's/^/    + /' "$2"
    fi
}

# put_file SOURCE DEST MODE: install a copy of SOURCE as DEST; sets changed=1 if it had to.
put_file() {
    local src=$1 dest=$2 mode=$3
    changed=0
    if [[ -f $dest ]] && cmp -s "$src" "$dest"; then
        ok "$dest"
    else
        changed=1
        act "install $dest from ${src#"$SRC"/}" install -D -m "$mode" "$src" "$dest"
    fi
}

# setting NAME VALUE AUTO: an auto|0|1 override resolved to 0 or 1 (AUTO = the profile's answer).
setting() {
    case $2 in
        auto) printf '%s' "$3" ;;
        1 | yes | on) printf 1 ;;
        0 | no | off) printf 0 ;;
        *) die "$1 must be auto, 0 or 1, not '$2'" ;;
    esac
}

# check_mux_overlay: does the i2c-mux overlay on this card take every bus parameter the block
# gives it? Its i2c1/i2c2 parameters only came with raspberrypi/linux PR 6636 (January 2025),
# and a line whose parameter the overlay lacks does not load the mux. The overlay's parameters
# are read from the .dtbo (pitboard.hwconfig.dtbo runs on the standard library alone).
warnings=()
check_mux_overlay() {
    local dtbo=$BOOT_DIR/overlays/i2c-mux.dtbo board have param missing_params
    [[ -n ${fact[mux_params_pi4]}${fact[mux_params_pi5]} ]] || return 0
    if [[ ! -f $dtbo ]]; then
        warnings+=("no $dtbo to check: the multiplexers on the extra I2C controllers need it")
        return 0
    fi
    if ! have=$(python3 "$DTBO_PY" "$dtbo" 2>&1); then
        warnings+=("cannot read $dtbo ($have): the multiplexers on the extra I2C controllers need it")
        return 0
    fi
    for board in pi4 pi5; do
        missing_params=()
        for param in ${fact[mux_params_$board]}; do
            grep -qx -- "$param" <<<"$have" || missing_params+=("$param")
        done
        if ((${#missing_params[@]})); then
            warnings+=("$dtbo has no parameter ${missing_params[*]} (used under [$board]): this overlay predates it (raspberrypi/linux PR 6636, January 2025), so on a ${board/pi/Pi } that mux would not load; update the kernel and firmware (sudo apt full-upgrade), then run this again")
        else
            ok "$dtbo takes the [$board] bus parameters: ${fact[mux_params_$board]:-none needed}"
        fi
    done
}

# -- checks before anything changes ----------------------------------------------------------

if [[ $PROFILE == */* || $PROFILE == *.toml ]]; then # a profile file of the user's own
    PROFILE_FILE=$(realpath -e -- "$PROFILE" 2>/dev/null) || die "no profile file $PROFILE"
    [[ -f $PROFILE_FILE ]] || die "profile $PROFILE is not a file"
else
    [[ $PROFILE =~ ^[A-Za-z0-9_-]+$ ]] || die "bad PROFILE '$PROFILE' (a name in hw_config/ or a .toml file)"
    PROFILE_FILE=$SRC/hw_config/$PROFILE.toml
    if [[ ! -f $PROFILE_FILE ]]; then
        available=$(cd "$SRC/hw_config" 2>/dev/null && printf '%s ' *.toml) || true
        die "no profile $PROFILE_FILE (available: ${available:-none}; or PROFILE=path/to/file.toml)"
    fi
fi
[[ -f $SRC/systemd/$SERVICE ]] || die "no unit file $SRC/systemd/$SERVICE"
[[ -f $SRC/firmware_py/pitboard/hwconfig/installfacts.py ]] ||
    die "no $SRC/firmware_py/pitboard/hwconfig/installfacts.py (is $SRC a pitboard checkout?)"
DTBO_PY=$SRC/firmware_py/pitboard/hwconfig/dtbo.py
if [[ $DRY_RUN != 1 && -z $ROOT && $EUID -ne 0 ]]; then
    die "run as root (sudo), or with --dry-run to see what would be done"
fi
case $NEW_CONFIG in
    1 | yes | on) NEW_CONFIG=1 ;;
    0 | no | off | "") NEW_CONFIG=0 ;;
    *) die "NEW_CONFIG must be 0 or 1, not '$NEW_CONFIG'" ;;
esac

# The configuration in effect after this run: an installed one is kept unless NEW_CONFIG=1.
keep_config=0
if [[ -f $CONFIG ]] && ! cmp -s "$PROFILE_FILE" "$CONFIG" && [[ $NEW_CONFIG != 1 ]]; then
    keep_config=1
    EFFECTIVE=$CONFIG
else
    EFFECTIVE=$PROFILE_FILE
fi
# check_config FILE WHAT: `pitboard check-config` with the code about to be installed (the
# wheel's, else the checkout's: it needs only the standard library), before anything changes.
# It leaves in $facts the KEY=VALUE lines the boot settings follow (--install-facts: whether
# the console is on the Pi's UART, the I2C overlays, the drop-ins; pitboard/hwconfig/
# installfacts.py), from the same typed configuration and tables as the program itself.
check_config() {
    local file=$1 what=$2 problems first more="" errors
    errors=$(mktemp)
    if facts=$(PYTHONPATH=$CHECK_PATH python3 -m pitboard check-config --install-facts "$file" 2>"$errors"); then
        rm -f "$errors"
        ok "$what $file passes pitboard check-config"
        return 0
    fi
    problems=$(grep -v '^warning: ' "$errors" || true)
    rm -f "$errors"
    first=$(head -n 1 <<<"$problems")
    (($(wc -l <<<"$problems") > 1)) && more=" (and $(($(wc -l <<<"$problems") - 1)) more: pitboard check-config $file lists them)"
    refuse "$what $file does not pass pitboard check-config: ${first:-it exits with an error}$more"
}
CHECK_PATH=$SRC/firmware_py
if [[ -n $WHEEL ]]; then
    [[ -f $WHEEL && $(basename -- "$WHEEL") == pitboard-*.whl ]] || refuse "WHEEL=$WHEEL is not a pitboard-*.whl file"
    WHEEL=$(realpath -e -- "$WHEEL")
    CHECK_PATH=$(mktemp -d)
    trap 'rm -rf "$CHECK_PATH"' EXIT
    python3 -m zipfile -e "$WHEEL" "$CHECK_PATH" || refuse "cannot unpack $WHEEL (a wheel is a zip file)"
fi
check_config "$PROFILE_FILE" "profile"
# the last check is of the configuration in effect: its facts are the ones kept
((keep_config)) && check_config "$CONFIG" "the installed configuration"

declare -A fact=()
while IFS='=' read -r key value; do fact[$key]=$value; done <<<"$facts"
use_uart=$(setting UART "$UART" "${fact[uart]}")
use_spi=$(setting SPI "$SPI" "${fact[spi]}")

mode="install"
[[ $DRY_RUN == 1 ]] && mode="dry run: nothing will be touched"
say "install-pi: profile $PROFILE from $SRC into ${ROOT:-/} ($mode)"
((keep_config)) && say "install-pi: settings from the installed $CONFIG (kept)"

# -- Debian packages -------------------------------------------------------------------------

read -r -a extra <<<"$EXTRA_APT"
[[ $use_spi == 1 ]] && extra+=("${SPI_APT_PACKAGES[@]}")
missing=()
for package in "${APT_PACKAGES[@]}" "${extra[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null) || true
    [[ $status == installed ]] || missing+=("$package")
done
if ((${#missing[@]})); then
    act "refresh the package lists" apt-get update
    act "install ${missing[*]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${missing[@]}"
else
    ok "packages ${APT_PACKAGES[*]} ${extra[*]}"
fi

# -- boot configuration ----------------------------------------------------------------------

BOOT_DIR=$ROOT/boot/firmware
[[ -f $BOOT_DIR/config.txt || ! -f $ROOT/boot/config.txt ]] || BOOT_DIR=$ROOT/boot # bullseye
if [[ ${fact[hardware]} != 1 ]]; then
    ok "$EFFECTIVE drives no Pi hardware: boot configuration left alone"
elif [[ ! -f $BOOT_DIR/config.txt ]]; then
    say "warning: no $BOOT_DIR/config.txt (not Raspberry Pi OS?): boot configuration skipped"
else
    # A block of our own, opened with [all] so it applies whatever section the file ends in,
    # and rewritten as a whole so a change of profile also removes lines no longer wanted.
    block=("$BLOCK_BEGIN" "[all]" "dtparam=i2c_arm=on,i2c_arm_baudrate=${fact[i2c_baudrate]}")
    # An overlay's parameters stay in scope until the next overlay: "dtoverlay=" (no name) ends
    # it, so the dtparam lines below go to the base device tree (Raspberry Pi documentation,
    # "Device Trees, overlays, and parameters", part 3.2). Order matters here.
    [[ -n ${fact[mux_address]} ]] && block+=("dtoverlay=i2c-mux,pca9548,addr=${fact[mux_address]}" "dtoverlay=")
    # More I2C controllers ([[i2c.extra]]): the same header pins are a different controller
    # with its own overlay on a Pi 4 and a Pi 5, so each board gets its own lines, each
    # controller's overlay before the mux on it, then "dtoverlay=" and back to [all].
    if [[ -n ${fact[i2c_extra_pi4]} ]]; then
        for board in pi4 pi5; do
            IFS=';' read -ra more <<<"${fact[i2c_extra_$board]}"
            block+=("[$board]" "${more[@]}" "dtoverlay=")
        done
        block+=("[all]")
    fi
    # GPIO 14/15 serve either the staff console (UART on) or plain inputs (duo: UART off).
    # The console opens /dev/ttyAMA0, the PL011 on GPIO 14/15 of both boards: a Pi 4 gives it
    # to Bluetooth unless disable-bt; a Pi 5's serial0 is its debug connector (ttyAMA10) and
    # GPIO 14/15 carry UART0 only with dtparam=uart0=on. [pi4]/[pi5] apply to the lines after
    # them, so the block returns to [all] before anything else (order matters).
    if [[ $use_uart == 1 ]]; then
        block+=("enable_uart=1" "[pi4]" "dtoverlay=disable-bt" "dtoverlay=" "[pi5]"
                "dtparam=uart0=on" "[all]")
    else
        block+=("enable_uart=0")
    fi
    # SPI0 claims GPIO 7-11, which duo wires as buttons: on only for an SPI display.
    if [[ $use_spi == 1 ]]; then block+=("dtparam=spi=on"); else block+=("dtparam=spi=off"); fi
    block+=("$BLOCK_END")

    current=$(<"$BOOT_DIR/config.txt")
    rest=$(printf '%s\n' "$current" | awk -v b="$BLOCK_BEGIN" -v e="$BLOCK_END" '
        $0 == b { skip = 1 } !skip { print } $0 == e { skip = 0 }')
    wanted=$(printf '%s\n' "${block[@]}")
    [[ -n $rest ]] && wanted=$rest$'\n\n'$wanted
    put_text "$BOOT_DIR/config.txt" - "$wanted"$'\n'
    ((changed)) && reboot_needed=1
    check_mux_overlay

    # Whether GPIO 14/15 are the console's UART or inputs, the kernel console and its login
    # prompt must let go of them.
    if [[ -f $BOOT_DIR/cmdline.txt ]]; then
        cmdline=$(<"$BOOT_DIR/cmdline.txt")
        stripped=$(printf '%s\n' "$cmdline" | sed -E \
            's/(^| )console=(serial[0-9]+|ttyAMA[0-9]+|ttyS[0-9]+)(,[0-9]+)?( |$)/\1/g; s/ +$//')
        if [[ $stripped != "$cmdline" ]]; then
            detail=$(show_diff "$BOOT_DIR/cmdline.txt" <(printf '%s\n' "$stripped"))
            act "remove the serial console from $BOOT_DIR/cmdline.txt" \
                write_text "$BOOT_DIR/cmdline.txt" - "$stripped"$'\n'
            reboot_needed=1
        else
            ok "$BOOT_DIR/cmdline.txt has no serial console"
        fi
    fi

    # /dev/i2c-N exists only with i2c-dev loaded (raspi-config does the same via /etc/modules).
    # The unit's DeviceAllow=char-i2c, char-ttyUSB... are looked up in /proc/devices when it
    # starts, so these drivers must be registered by then even if the USB adapter comes later;
    # systemd-modules-load runs before sysinit.target, hence before the service.
    modules=(i2c-dev usbserial cdc_acm)
    [[ $use_spi == 1 ]] && modules+=(spidev)
    put_text "$MODULES" 0644 "# written by pitboard install-pi.sh"$'\n'"$(printf '%s\n' "${modules[@]}")"$'\n'
    if [[ ${fact[mux_idle_disconnect]} == 1 ]]; then
        put_text "$MUX_RULE" 0644 "# written by pitboard install-pi.sh: cut the mux's channels off between transfers"$'\n''ACTION=="bind", SUBSYSTEM=="i2c", DRIVER=="pca954x", ATTR{idle_state}="-2"'$'\n'
        # the rule acts when the driver binds (at boot): muxes bound already get it now
        apply_idle_disconnect
    elif [[ -f $MUX_RULE ]]; then
        act "remove $MUX_RULE (this profile has no mux to cut off between transfers)" \
            rm -f "$MUX_RULE"
    fi
fi

# -- system user -----------------------------------------------------------------------------

for group in "${DEVICE_GROUPS[@]}"; do
    if getent group "$group" >/dev/null; then
        ok "group $group"
    else
        act "create group $group" groupadd --system "$group"
    fi
done
if getent passwd "$SERVICE_USER" >/dev/null; then
    ok "user $SERVICE_USER"
    for group in "${DEVICE_GROUPS[@]}"; do
        members=$(getent group "$group" | cut -d: -f4)
        if [[ ",$members," != *",$SERVICE_USER,"* ]]; then
            act "add $SERVICE_USER to group $group" usermod --append --groups "$group" "$SERVICE_USER"
        fi
    done
else
    groups_csv=$(IFS=,; printf '%s' "${DEVICE_GROUPS[*]}")
    act "create system user $SERVICE_USER" useradd --system --user-group \
        --home-dir /var/lib/pitboard --no-create-home --shell /usr/sbin/nologin \
        --comment "Pitboard table service" --groups "$groups_csv" "$SERVICE_USER"
fi

# -- the program: a wheel installed into a venv that also sees apt's lgpio ----------------------

source_hash() {
    (cd "$SRC" && find pyproject.toml README.md MANIFEST.in firmware_py -type f \
        ! -path '*/__pycache__/*' ! -path '*.egg-info/*' ! -name '*.pyc' -print0 |
        LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum | cut -d' ' -f1
}

# build_wheel: copy the checkout to $PREFIX/src and build the wheel from it into $PREFIX/dist
# (pip fetches the build tools the project names; nothing is written into the checkout)
build_wheel() {
    rm -rf "$PREFIX/src.new" "$PREFIX/dist"
    mkdir -p "$PREFIX/src.new" "$PREFIX/dist"
    tar -C "$SRC" --exclude=__pycache__ --exclude='*.egg-info' --exclude='*.pyc' -cf - \
        pyproject.toml README.md MANIFEST.in firmware_py | tar -C "$PREFIX/src.new" -xf -
    rm -rf "$PREFIX/src"
    mv "$PREFIX/src.new" "$PREFIX/src"
    "$VENV/bin/python" -m pip wheel --no-input --disable-pip-version-check --no-deps \
        --wheel-dir "$PREFIX/dist" "$PREFIX/src"
}

# install_wheel FILE: its dependencies from PyPI and the wheel; where a pitboard was installed
# before, the wheel again over it (pip keeps an installed copy of the same version)
install_wheel() {
    local had=0
    [[ -e $VENV/bin/pitboard ]] && had=1
    "$VENV/bin/python" -m pip install --no-input --disable-pip-version-check "$1"
    ((had)) || return 0
    "$VENV/bin/python" -m pip install --no-input --disable-pip-version-check \
        --force-reinstall --no-deps "$1"
}

if [[ -x $VENV/bin/python ]] &&
    grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg" 2>/dev/null; then
    ok "venv $VENV"
else
    act "create venv $VENV (with system site packages, for python3-lgpio)" \
        python3 -m venv --clear --system-site-packages "$VENV"
fi

if [[ -n $WHEEL ]]; then
    hash="wheel $(basename -- "$WHEEL") $(sha256sum <"$WHEEL" | cut -d' ' -f1)"
else
    hash="source $(source_hash)"
fi
stamp=$PREFIX/.installed-source
if [[ -x $VENV/bin/pitboard && -f $stamp && $(<"$stamp") == "$hash" ]]; then
    ok "pitboard installed from this ${hash%% *} (${hash##* })"
else
    wheel=$WHEEL
    if [[ -z $WHEEL ]]; then
        act "build the pitboard wheel from $SRC into $PREFIX/dist" build_wheel
        wheel=$PREFIX/dist/pitboard-wheel.whl # (a dry run builds nothing: a name to show)
        if [[ $DRY_RUN != 1 ]]; then
            wheel=$(find "$PREFIX/dist" -maxdepth 1 -name 'pitboard-*.whl' | head -n 1)
            [[ -n $wheel ]] || die "pip wheel made no pitboard-*.whl in $PREFIX/dist"
        fi
    fi
    act "install pitboard into $VENV from $(basename -- "$wheel")" install_wheel "$wheel"
    act "record the installed ${hash%% *} in $stamp" write_text "$stamp" 0644 "$hash"
fi
if [[ -L $COMMAND_LINK && $(readlink "$COMMAND_LINK") == "$COMMAND_TARGET" ]]; then
    ok "$COMMAND_LINK -> $COMMAND_TARGET"
else
    act "link $COMMAND_LINK to $COMMAND_TARGET (pitboard on PATH)" \
        link_command
fi

# -- configuration and unit ------------------------------------------------------------------

if ((keep_config)); then
    ok "$CONFIG kept (installed earlier; it differs from profile $PROFILE)"
    say "note: to replace it with the profile run again with NEW_CONFIG=1 (or --new-config);"
    say "      add --dry-run to see the differences first"
elif [[ -f $CONFIG ]] && ! cmp -s "$PROFILE_FILE" "$CONFIG"; then # NEW_CONFIG=1 asked for it
    act "keep the previous configuration as $CONFIG.old" cp -p "$CONFIG" "$CONFIG.old"
    detail=$(show_diff "$CONFIG" "$PROFILE_FILE")
    act "install $CONFIG from profile $PROFILE" install -D -m 0644 "$PROFILE_FILE" "$CONFIG"
else
    put_file "$PROFILE_FILE" "$CONFIG" 0644
fi
# the installed copy reads the configuration it will run with (what the pre-check passed)
if [[ $DRY_RUN != 1 ]]; then
    if problems=$("$VENV/bin/pitboard" check-config "$CONFIG" 2>&1 >/dev/null); then
        ok "the installed pitboard passes $CONFIG"
    else
        die "the installed pitboard refuses $CONFIG: $(grep -v '^warning: ' <<<"$problems" | head -n 1)"
    fi
fi
put_file "$SRC/systemd/$SERVICE" "$UNIT" 0644
unit_changed=$changed
# phones on the LAN, or this Pi's own TV: the drop-in that opens the service to the local
# network (and only to it)
if [[ ${fact[web_net]} == 1 ]]; then
    put_file "$SRC/systemd/pitboard-web.conf" "$WEB_DROPIN" 0644
    ((changed)) && unit_changed=1
elif [[ -f $WEB_DROPIN ]]; then
    act "remove $WEB_DROPIN (this configuration serves no phones on the LAN and no TV)" rm -f "$WEB_DROPIN"
    unit_changed=1
else
    ok "no $WEB_DROPIN (no phones on the LAN, no TV: the service stays off the network)"
fi

# [tv] screen: the desktop opens the track view full-screen at login (pitboard tv), and the
# screen never blanks. Raspberry Pi OS Bookworm's desktop (labwc) starts /etc/xdg/autostart at
# login; blanking is raspi-config's "Screen Blanking" (Raspberry Pi documentation, "Screen
# blanking": nonint do_blanking 1 turns it off), set when the TV is set up (not at every run:
# turned on again afterwards, it stays the owner's choice). The page also holds a screen wake
# lock while it shows.
if [[ ${fact[tv_screen]} == 1 ]]; then
    put_file "$SRC/systemd/pitboard-tv.desktop" "$TV_AUTOSTART" 0644
    if ((changed)); then
        if command -v raspi-config >/dev/null; then
            act "turn screen blanking off (the TV stays on)" raspi-config nonint do_blanking 1
        else
            warnings+=("no raspi-config here: turn screen blanking off yourself, or the TV goes dark after 10 minutes")
        fi
    fi
    if ! command -v chromium-browser >/dev/null && ! command -v chromium >/dev/null; then
        warnings+=("no Chromium for the TV: sudo apt install chromium-browser (Raspberry Pi OS with desktop has it)")
    fi
    if [[ -z $ROOT ]] && [[ $(systemctl get-default 2>/dev/null) != graphical.target ]]; then
        warnings+=("this Pi does not boot to the desktop: the TV opens there. Boot to it, logged in: sudo raspi-config nonint do_boot_behaviour B4")
    fi
elif [[ -f $TV_AUTOSTART ]]; then
    act "remove $TV_AUTOSTART (this configuration shows no TV on this screen)" rm -f "$TV_AUTOSTART"
else
    ok "no $TV_AUTOSTART (no TV on this screen)"
fi

systemctl_root=()
[[ -n $ROOT ]] && systemctl_root=(--root="$ROOT")
if [[ -z $ROOT && $unit_changed == 1 ]]; then
    act "reload systemd" systemctl daemon-reload
fi
if systemctl "${systemctl_root[@]}" is-enabled --quiet "$SERVICE" 2>/dev/null; then
    ok "$SERVICE enabled"
else
    act "enable $SERVICE at boot" systemctl "${systemctl_root[@]}" enable "$SERVICE"
fi
# A Pi 4 gives GPIO 14/15 to the console's PL011 only with disable-bt, and then the modem
# set-up service must not open that UART (configuration/uart.adoc, "UARTs and Device Tree":
# "sudo systemctl disable hciuart"). A Pi 5's Bluetooth has a UART of its own: left alone.
# The board is read from the running device tree; move the card to a Pi 4: run this again.
compatible=""
[[ -r $ROOT/proc/device-tree/compatible ]] && compatible=$(tr '\0' ' ' <"$ROOT/proc/device-tree/compatible")
if [[ $use_uart == 1 && " $compatible " == *" brcm,bcm2711 "* ]]; then
    if systemctl "${systemctl_root[@]}" is-enabled --quiet hciuart.service 2>/dev/null; then
        act "disable hciuart.service (its Bluetooth UART is the console's now)" \
            systemctl "${systemctl_root[@]}" disable hciuart.service
    else
        ok "hciuart.service not enabled"
    fi
fi
if [[ -z $ROOT ]] && ((changes)) && systemctl is-active --quiet "$SERVICE" 2>/dev/null; then
    act "restart the running $SERVICE" systemctl try-restart "$SERVICE"
fi

# -- summary ---------------------------------------------------------------------------------

if [[ $DRY_RUN == 1 ]]; then
    say "install-pi: dry run: $changes change(s) would be made; nothing was touched"
elif ((changes)); then
    say "install-pi: $changes change(s) made"
    if ((reboot_needed)); then
        say "install-pi: reboot to apply the boot configuration"
    elif [[ -z $ROOT ]] && ! systemctl is-active --quiet "$SERVICE" 2>/dev/null; then
        say "install-pi: start it with: systemctl start $SERVICE"
    fi
else
    say "install-pi: nothing changed"
fi
for warning in "${warnings[@]}"; do
    say "warning: $warning"
done
if [[ ${fact[default_pin]} == 1 ]]; then
    say "warning: the staff PIN in $CONFIG (the console's, and the phones' for the lobby"
    say "         settings) is still the default published with Pitboard:"
    say "         set [console] staff_pin there (4-8 digits), then: systemctl restart $SERVICE"
fi
