"""Thin hardware edges: station inputs (gpiozero, MCP23017) and OLED displays (luma)."""
