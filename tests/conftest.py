from django.conf import settings


def pytest_report_header(config):
    db = settings.DATABASES["default"]
    where = (
        db["NAME"]
        if db["ENGINE"].endswith("sqlite3")
        else f"{db['NAME']} on {db['HOST']}:{db['PORT']}"
    )
    return f"database: {db['ENGINE'].rsplit('.', 1)[-1]} ({where}; tests use a throwaway copy)"
