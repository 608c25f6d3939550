@_exported import CNCurses
