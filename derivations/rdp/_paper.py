"""Paper metadata for Mironov's Renyi DP (no claims encoded yet)."""
PAPER = {"key": "rdp", "title": "R\u00e9nyi Differential Privacy", "authors": "Ilya Mironov", "venue": "IEEE CSF 2017",
         "seeds": {"003_e6980684d37f3439.txt": "PDF text"}, "prefix": "RDP-"}
