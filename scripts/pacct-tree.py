#!/usr/bin/env python3
# pacct-tree.py PACCT: the CPU of the longest-lived "launch*" process and its descendants,
# from a process-accounting file (apt-get install acct; accton FILE; run; accton off).
# Unlike /usr/bin/time it counts the children of sandboxes killed at their time limit.
import subprocess,sys,collections,time
out=subprocess.run(['dump-acct',sys.argv[1]],capture_output=True,text=True).stdout.splitlines()
recs=[]
for l in out:
    f=[x.strip() for x in l.split('|')]
    if len(f)<15: continue
    try: st=time.mktime(time.strptime(f[14],'%a %b %d %H:%M:%S %Y'))
    except Exception: continue
    recs.append(dict(comm=f[0],cpu=(float(f[2])+float(f[3]))/100,pid=int(f[9]),ppid=int(f[10]),start=st,end=st+float(f[4])/100))
roots=[r for r in recs if r['comm'].startswith('launch') and r['end']-r['start']>60]
root=max(roots,key=lambda r:r['end']-r['start'])
kids=collections.defaultdict(list)
for r in recs: kids[r['ppid']].append(r)
tot=collections.Counter(); tot[root['comm']]+=root['cpu']
stack=[root]; n=0
while stack:
    p=stack.pop()
    for r in kids[p['pid']]:
        if r is p or not (p['start']-1 <= r['start'] <= p['end']+1): continue
        tot[r['comm']]+=r['cpu']; stack.append(r); n+=1
print("total %.1f s (%d processes)" % (sum(tot.values()),n))
for k,v in tot.most_common(8): print("  %-16s %.1f" % (k,v))
