"""The station OLED's I2C transport: luma's ``i2c``, plus several writes in one kernel transfer.

luma's ``i2c(port=N)`` sends every ``command()`` and every ``data()`` as its own transfer. Behind
a TCA9548A whose channel is cut off between transfers (the overlay's idle disconnect), the kernel
wraps each transfer in a channel select and a deselect (Linux ``drivers/i2c/i2c-mux.c``,
``__i2c_mux_master_xfer``: select, ``__i2c_transfer(parent, msgs, num)``, deselect), so a changed
window (an address command and its data) cost two selects and two deselects: 8 bus bytes besides
its own. :meth:`I2cLink.transfer` sends a part's writes as the messages of ONE ``i2c_rdwr``:

* each message is what luma would send on its own: the address, the control byte (0x00: the
  rest are commands; 0x40: the rest are RAM data: SSD1306 data sheet rev 1.1 §8.1.5.2, the
  SH1106 and SSD1309 take the same two), then the bytes; the controller takes a repeated START
  as a new write (the I2C-bus specification UM10204: Sr is functionally a START);
* the Pi's controllers send a list of write messages in one transfer: ``i2c-bcm2835`` refuses
  only a read that is not last. The Pi 5's ``i2c-designware`` is less certain: the controller
  may run consecutive writes together without a repeated START unless it holds the bus between
  messages (``IC_EMPTYFIFO_HOLD_MASTER_EN``; a 2025 patch series for the driver treats that as
  present on all but one vendor's controllers). Joined messages would reach the OLED as one
  write whose second control byte is taken as a command, so hw-test's pattern would show it
  garbled. Unconfirmed on the RP1; were it so, the fix is one message per part, each command
  or data run introduced by a control byte with the Co bit set (SSD1306 §8.1.5.2);
* ``I2C_RDWR`` takes at most 42 messages per call (``I2C_RDWR_IOCTL_MAX_MSGS``) of at most 8192
  bytes each: a longer list goes in several calls.

Opening the bus is luma's (its one-line errors for a missing ``/dev/i2c-N`` or a permission).
An SMBus object without ``i2c_rdwr`` passed in (``bus=``, luma's "unmanaged" mode): the writes
then go one by one, as luma sends them.
"""

from __future__ import annotations

import errno
import logging
from collections.abc import Sequence
from typing import Any

from luma.core.interface.serial import i2c
from smbus2 import i2c_msg

from pitboard.hw.oled import BusWrite

log = logging.getLogger(__name__)

#: messages per ``I2C_RDWR`` call (include/uapi/linux/i2c-dev.h: I2C_RDWR_IOCTL_MAX_MSGS)
RDWR_MAX_MESSAGES = 42
#: the control byte before a message's bytes: all commands, or all display RAM data
CONTROL = {"command": 0x00, "data": 0x40}


class I2cLink(i2c):  # type: ignore[misc]
    """luma's ``i2c`` interface with :meth:`transfer`: a display part's writes in one kernel
    transfer (one mux select and deselect for all of them).

    Example::

        link = I2cLink(port=3, address=0x3C)
        link.transfer([BusWrite("command", bytes([0x21, 2, 9, 0x22, 1, 2])),
                       BusWrite("data", bytes(16))])
    """

    def __init__(self, *, port: int = 1, address: int = 0x3C, bus: Any = None) -> None:
        """``port``: the N of ``/dev/i2c-N``, opened by luma (smbus2). ``bus``: an open
        SMBus-like object instead (tests); with an ``i2c_rdwr`` it is used as luma uses its
        own (a transfer per :meth:`transfer`), without one the writes go one by one."""
        if bus is None:
            super().__init__(port=port, address=address)
            return
        super().__init__(bus=bus, address=address)
        if callable(getattr(bus, "i2c_rdwr", None)):
            self._managed = True
            self._i2c_msg_write = i2c_msg.write

    _one_by_one = False

    @staticmethod
    def _written(writes: Sequence[BusWrite], messages: int) -> int:
        """How many of ``writes`` the first ``messages`` messages were (empty ones send none)."""
        sent = 0
        for n, w in enumerate(writes):
            if sent == messages:
                return n
            sent += bool(w.payload)
        return len(writes)

    def transfer(self, writes: Sequence[BusWrite]) -> None:
        """Send ``writes`` (in order) as the messages of one ``i2c_rdwr``; raises ``OSError``
        as the kernel reports it (a NACK: EREMOTEIO or EIO)."""
        if not self._managed or self._one_by_one:
            for w in writes:
                if w.kind == "command":
                    self.command(*w.payload)
                elif w.payload:
                    self.data(list(w.payload))
            return
        messages: list[Any] = [self._i2c_msg_write(self._addr, [CONTROL[w.kind], *w.payload])
                               for w in writes if w.payload]
        for i in range(0, len(messages), RDWR_MAX_MESSAGES):
            batch = messages[i : i + RDWR_MAX_MESSAGES]
            try:
                self._bus.i2c_rdwr(*batch)
            except OSError as exc:
                if exc.errno != errno.EOPNOTSUPP or len(batch) == 1:
                    raise
                # an adapter that takes one message per transfer (the kernel says so before
                # anything goes on the bus): from now on one write per transfer, as luma sends
                log.warning("I2C adapter takes one message per transfer: display writes go "
                            "one by one (%s)", exc)
                self._one_by_one = True
                self.transfer(writes[self._written(writes, i):])
                return
