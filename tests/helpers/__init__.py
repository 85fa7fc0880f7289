"""What tests share: builders of games and leagues, page and PDF readers, app servers. Test
modules import from here (and fixtures come from the conftest files); no test module imports
another."""
