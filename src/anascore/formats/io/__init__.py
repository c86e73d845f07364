"""The input and output wing of the formats: opening files and standard input, checking that a
key and a response align on their words, mapping a response onto the key's tokens, converting
between formats and writing output files whole.
"""
