"""The cycle-level simulator of the chip and the KTIR reference interpreter."""
