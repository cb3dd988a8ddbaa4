"""Paper metadata for the CBDP derivations."""
PAPER = {
    "key": "cbdp",
    "title": "Capacity Bounded Differential Privacy",
    "authors": "Kamalika Chaudhuri, Jacob Imola, Ashwin Machanavajjhala",
    "venue": "NeurIPS 2019",
    "seeds": {
        "000_3e98b0b0ed90e193.txt": "PDF text (superscripts often lost)",
        "001_5252829ad9e3d834.txt": "PDF text, one line",
        "002_830385d3d6b7db1c.txt": "arXiv rendering with the LaTeX source of each formula",
    },
    "prefix": "CBDP-",
}
