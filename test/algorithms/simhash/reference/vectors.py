import json
from lookup3 import hashlittle2
words = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'abcdef', 'abcdefg', 'medicare', 'democrats', 'negotiateable', 'internationalization',
         'na\u00efve', '\u65e5\u672c\u8a9e', 'a\U0001F600b', 'the quick brown fox jumps over the lazy dog']
out = []
for w in words:
    for pc, pb in [(0, 0), (0x12345678, 0x9abcdef0)]:
        c, b = hashlittle2(w.encode('utf-16-le'), pc, pb)
        out.append([w, pc, pb, '%08x%08x' % (c, b)])
print(json.dumps(out, ensure_ascii=True))
