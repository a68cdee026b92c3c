"""The table: flow, stations and screens around the rules engine."""
